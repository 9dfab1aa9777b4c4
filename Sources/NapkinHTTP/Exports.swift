// The channel every stream's bytes flow through is napkin's one bounded
// channel, which the broadcasters' mailboxes use too; it lives in the
// concurrency toolkit and is part of NapkinHTTP's API from here.
@_exported import NapkinSupport
