// An app imports NapkinWeb alone: it brings the rings (napkin), the server
// the app's routes are written against (NapkinHTTP), and the session
// records, message bus, leases, shared state, events and presence that
// live in NapkinStorage, apart from the web server.
@_exported import napkin
@_exported import NapkinHTTP
@_exported import NapkinStorage
