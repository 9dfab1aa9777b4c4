/// The names napkin's server and its client, `napkin.js`, agree on: form
/// fields, headers, cookies, query parameters, stream events and `data-`
/// attributes. Every one the server writes or reads is spelled here once;
/// a test reads napkin.js and fails when the script uses a name this lacks,
/// or this holds one the script never uses.
///
/// A client of its own (a test client, a native shell) speaks napkin by
/// these names.
public enum WireProtocol {
    /// The hidden fields of every napkin form
    /// (``WebViewController/form(_:key:class:returnTo:content:)-(String,_,_,_,_)``).
    public enum Field {
        /// The tab the form was rendered in.
        public static let tab = "_tab"
        /// The fragment whose action the form posts to.
        public static let fragment = "_fragment"
        /// The action's name.
        public static let action = "_action"
        /// The session's CSRF token.
        public static let csrf = "_csrf"
        /// The page to go back to after a post without JavaScript.
        public static let returnPath = "_return"
        /// The item a form of a list posts for (an item's id).
        public static let key = "_key"
        /// The form's token, fresh at each render: a post with a token
        /// already spent is answered as the first was, and not run again.
        public static let formToken = "_token"
    }

    /// Request and response headers.
    public enum Header {
        /// `1` on a post napkin's client makes (it wants `204` or `422`,
        /// never a redirect).
        public static let client = "X-Napkin"
        /// The tab a live navigation moves.
        public static let tab = "X-Napkin-Tab"
        /// The last stream event a page includes (on a page).
        public static let eventID = "X-Napkin-Event-ID"
        /// A post's CSRF token; on the response of a request that rotated
        /// the session, the new one.
        public static let csrf = "X-CSRF-Token"
        /// `1` on a validation pass: napkin's client asks whether the form
        /// would be taken, as the person types. Nothing runs but the
        /// action's decoder and its checks; the answer is `204` (nothing to
        /// say) or `200` with ``ValidationData``.
        public static let validate = "X-Napkin-Validate"
        /// On the answer to napkin's client's post that spent its form's
        /// token (``Field/formToken``): the form's next token.
        public static let formToken = "X-Napkin-Form-Token"
    }

    /// Cookies.
    public enum Cookie {
        /// The session id.
        public static let session = "napkin_session"
        /// Set by napkin's client: every page load is a tab of its own.
        public static let script = "napkin_js"
    }

    /// Query parameters of the event stream's URL.
    public enum Query {
        /// The tab whose stream it is.
        public static let tab = "tab"
        /// The last event the page has, where `EventSource` cannot send
        /// `Last-Event-ID` (the first connection).
        public static let lastEventID = "last-event-id"
        /// The page a tab shows, sent when its stream comes back after a
        /// ``Event/drain``: a process that does not hold the tab brings it
        /// back there, under its id.
        public static let path = "path"
    }

    /// The events of a tab's stream.
    public enum Event {
        /// A fragment's new HTML (JSON: `id`, `html`).
        public static let patch = "patch"
        /// The stream ends for good; the data says why (`superseded`).
        public static let end = "end"
        /// The session's id rotated: reconnect with the new cookie.
        public static let reconnect = "reconnect"
        /// The server is stopping: reconnect after a random delay of up to
        /// the data's milliseconds (through the load balancer, to another
        /// server), sending ``Query/path``.
        public static let drain = "drain"
    }

    /// The data of a ``Event/patch`` event: a JSON object with a fragment's
    /// id and its new outer HTML.
    public struct PatchData: Codable, Sendable, Equatable {
        /// The id of the fragment's element (its place in the tab's tree).
        public let id: String
        /// The fragment's new outer HTML, to put in place of the element.
        public let html: String

        /// A patch of fragment `id` to `html`.
        public init(id: String, html: String) {
            self.id = id
            self.html = html
        }

        /// The JSON names of the two fields, as napkin.js reads them.
        public enum CodingKeys: String, CodingKey {
            /// `id`.
            case id
            /// `html`.
            case html
        }
    }

    /// The answer to a validation pass (``Header/validate``) that found a
    /// problem: a JSON object with the field at fault (if one is) and the
    /// message to show.
    public struct ValidationData: Codable, Sendable, Equatable {
        /// The name of the field at fault; `nil` for the form as a whole.
        public let field: String?
        /// What to tell the person.
        public let message: String

        /// A problem with `field` (or the whole form), in `message`.
        public init(field: String?, message: String) {
            self.field = field
            self.message = message
        }

        /// The JSON names of the two fields, as napkin.js reads them.
        public enum CodingKeys: String, CodingKey {
            /// `field`.
            case field
            /// `message`.
            case message
        }
    }

    /// `data-` attributes.
    public enum Attribute {
        /// On `<body>`: the page's tab.
        public static let tab = "data-napkin-tab"
        /// On `<body>`: the tab's event stream URL.
        public static let stream = "data-napkin-stream"
        /// On `<body>`: the session's CSRF token.
        public static let csrf = "data-napkin-csrf"
        /// On `<body>`: the last stream event the page includes.
        public static let eventID = "data-napkin-event-id"
        /// On a napkin form: napkin's client posts it.
        public static let form = "data-napkin-form"
        /// On a form problem's message: the field at fault.
        public static let field = "data-napkin-field"
        /// On a napkin form whose action validates while typing: the
        /// milliseconds of quiet before napkin's client asks.
        public static let validate = "data-napkin-validate"
        /// On a field helper's message element: the field it speaks for.
        public static let message = "data-napkin-message"
        /// Written by an app on a submit button: its label while the post
        /// is on its way ("Saving…").
        public static let working = "data-napkin-working"
        /// Written by an app on a link (or around it): follow it with a
        /// page load, not a live navigation.
        public static let reload = "data-napkin-reload"
        /// Written by an app on `<body>`: milliseconds a hidden tab keeps
        /// its stream (10,000 by default).
        public static let hiddenGrace = "data-napkin-hidden-grace"
        /// Kept by napkin's client for itself (never sent by the server).
        public static let clientOwn = ["data-napkin-own", "data-napkin-busy", "data-napkin-armed", "data-napkin-label"]
    }
}
