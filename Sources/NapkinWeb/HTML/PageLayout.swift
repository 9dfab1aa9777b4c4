/// The document around a session's napkin tree: `<head>` with the title,
/// the app's stylesheets and napkin's client script, and a `<body>` that
/// tells the client where the event stream is.
///
/// There is no inline script, so a `script-src 'self'` policy holds.
public struct PageLayout: Sendable {
    /// The document title.
    public var title: String
    /// Stylesheet URLs, usually files in `Public/`.
    public var stylesheets: [String] { didSet { fixed = Fixed(self) } }
    /// Script URLs; napkin's client (``WebSession/scriptPath``, served by
    /// every ``NapkinApp``) comes first. Add an app's own scripts after it.
    public var scripts: [String] { didSet { fixed = Fixed(self) } }
    /// The `class` of `<body>`.
    public var bodyClass: String? { didSet { fixed = Fixed(self) } }
    /// The `lang` of `<html>`.
    public var language: String { didSet { fixed = Fixed(self) } }
    /// The icon URL, if any.
    public var icon: String? { didSet { fixed = Fixed(self) } }

    /// The markup that is the same on every page, made once (and again
    /// when a property it shows changes), not on every page view.
    private var fixed = Fixed()

    private struct Fixed: Sendable {
        /// From the doctype to the `<title>` tag.
        var opening: HTML = ""
        /// From `</title>` to the `<body` attributes that vary.
        var head: HTML = ""

        init() {}

        init(_ layout: PageLayout) {
            let styles = layout.stylesheets.map { href -> HTML in "<link rel=\"stylesheet\" href=\"\(href)\">" }
            let scriptTags = layout.scripts.map { src -> HTML in "<script src=\"\(src)\" defer></script>" }
            let iconTag: HTML? = layout.icon.map { "<link rel=\"icon\" href=\"\($0)\">" }
            let classAttribute: HTML? = layout.bodyClass.map { " class=\"\($0)\"" }
            opening = """
                <!doctype html>
                <html lang="\(layout.language)">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>
                """
            head = """
                </title>
                \(iconTag)\(styles)\(scriptTags)
                </head>
                <body\(classAttribute)
                """
        }
    }

    /// A layout; by default only napkin's client script.
    public init(
        title: String,
        stylesheets: [String] = [],
        scripts: [String] = [WebSession.scriptPath],
        bodyClass: String? = nil,
        language: String = "en",
        icon: String? = nil
    ) {
        self.title = title
        self.stylesheets = stylesheets
        self.scripts = scripts
        self.bodyClass = bodyClass
        self.language = language
        self.icon = icon
        fixed = Fixed(self)
    }

    /// The whole document around `body`. `<body>` tells napkin's client
    /// the tab's event stream, its id, the CSRF token and the event id the
    /// page is current to.
    /// `pageTitle`, when given, replaces ``title``.
    public func render(
        body: HTML, csrfToken: String, eventID: UInt64, eventsPath: String, tabID: String? = nil, pageTitle: String? = nil
    ) -> HTML {
        let bytes = renderedBytes(
            body: body, csrfToken: csrfToken, eventID: eventID, eventsPath: eventsPath, tabID: tabID, pageTitle: pageTitle)
        return HTML(raw: String(decoding: bytes, as: UTF8.self))
    }

    /// The document of ``render(body:csrfToken:eventID:eventsPath:tabID:pageTitle:)``
    /// as the bytes a response sends, made in one buffer of its final size:
    /// built as a string, a page grew its storage five times and was then
    /// copied once more into the response.
    func renderedBytes(
        body: HTML, csrfToken: String, eventID: UInt64, eventsPath: String, tabID: String?, pageTitle: String?
    ) -> [UInt8] {
        let title = HTML.escape(pageTitle ?? self.title)
        let stream = HTML.escape(eventsPath)
        let tab = tabID.map(HTML.escape)
        let csrf = HTML.escape(csrfToken)
        let event = String(eventID)
        let parts: [String] = [
            fixed.opening.rendered, title, fixed.head.rendered, " \(WireProtocol.Attribute.stream)=\"", stream,
            tab == nil ? "" : "\" \(WireProtocol.Attribute.tab)=\"", tab ?? "",
            "\" \(WireProtocol.Attribute.csrf)=\"", csrf, "\" \(WireProtocol.Attribute.eventID)=\"", event, "\">\n", body.rendered,
            "\n</body>\n</html>",
        ]
        var page: [UInt8] = []
        page.reserveCapacity(parts.reduce(0) { $0 + $1.utf8.count })
        for part in parts { page.append(contentsOf: part.utf8) }
        return page
    }
}
