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
        let tabAttribute: HTML? = tabID.map { " data-napkin-tab=\"\($0)\"" }
        return """
            \(fixed.opening)\(pageTitle ?? title)\(fixed.head) data-napkin-stream="\(eventsPath)"\(tabAttribute) data-napkin-csrf="\(csrfToken)" data-napkin-event-id="\(eventID)">
            \(body)
            </body>
            </html>
            """
    }
}
