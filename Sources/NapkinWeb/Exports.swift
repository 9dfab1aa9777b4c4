// Session records and values, the message bus, leases, shared state,
// events and presence live in NapkinStorage, apart from the web server; an
// app that imports NapkinWeb gets them too.
@_exported import NapkinStorage
