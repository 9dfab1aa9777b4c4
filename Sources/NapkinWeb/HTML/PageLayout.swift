/// The document around a session's napkin tree: `<head>` with the title,
/// the app's stylesheets and napkin's client script, and a `<body>` that
/// tells the client where the event stream is.
///
/// There is no inline script, so a `script-src 'self'` policy holds.
public struct PageLayout: Sendable {
    /// The document title.
    public var title: String
    /// Stylesheet URLs, usually files in `Public/`.
    public var stylesheets: [String]
    /// Script URLs; napkin's client (``WebSession/scriptPath``, served by
    /// every ``NapkinApp``) comes first. Add an app's own scripts after it.
    public var scripts: [String]
    /// The `class` of `<body>`.
    public var bodyClass: String?
    /// The `lang` of `<html>`.
    public var language: String
    /// The icon URL, if any.
    public var icon: String?

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
    }

    /// The whole document around `body`. `<body>` tells napkin's client
    /// the tab's event stream, its id, the CSRF token and the event id the
    /// page is current to.
    /// `pageTitle`, when given, replaces ``title``.
    public func render(
        body: HTML, csrfToken: String, eventID: UInt64, eventsPath: String, tabID: String? = nil, pageTitle: String? = nil
    ) -> HTML {
        let styles = stylesheets.map { href -> HTML in "<link rel=\"stylesheet\" href=\"\(href)\">" }
        let scriptTags = scripts.map { src -> HTML in "<script src=\"\(src)\" defer></script>" }
        let iconTag: HTML? = icon.map { "<link rel=\"icon\" href=\"\($0)\">" }
        let classAttribute: HTML? = bodyClass.map { " class=\"\($0)\"" }
        let tabAttribute: HTML? = tabID.map { " data-napkin-tab=\"\($0)\"" }
        return """
            <!doctype html>
            <html lang="\(language)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(pageTitle ?? title)</title>
            \(iconTag)\(styles)\(scriptTags)
            </head>
            <body\(classAttribute) data-napkin-stream="\(eventsPath)"\(tabAttribute) data-napkin-csrf="\(csrfToken)" data-napkin-event-id="\(eventID)">
            \(body)
            </body>
            </html>
            """
    }
}
