import Testing
@testable import NapkinWeb

@Suite("Page layout", .timeLimit(.minutes(1)))
struct PageLayoutTests {
    private func page(_ layout: PageLayout, title: String? = nil) -> String {
        layout.render(
            body: "<main>Hi</main>", csrfToken: "c&1", eventID: 7, eventsPath: "/_napkin/events", tabID: "t1", pageTitle: title
        ).rendered
    }

    @Test("the document around a page, every part in place and escaped")
    func wholeDocument() {
        let layout = PageLayout(
            title: "Ribs & Co", stylesheets: ["/a.css", "/b\".css"], scripts: ["/napkin.js"], bodyClass: "dark",
            language: "en-GB", icon: "/i.png")
        #expect(page(layout) == """
            <!doctype html>
            <html lang="en-GB">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Ribs &amp; Co</title>
            <link rel="icon" href="/i.png"><link rel="stylesheet" href="/a.css"><link rel="stylesheet" href="/b&quot;.css"><script src="/napkin.js" defer></script>
            </head>
            <body class="dark" data-napkin-stream="/_napkin/events" data-napkin-tab="t1" data-napkin-csrf="c&amp;1" data-napkin-event-id="7">
            <main>Hi</main>
            </body>
            </html>
            """)
        #expect(page(layout, title: "Pit <3").contains("<title>Pit &lt;3</title>"))
    }

    @Test("a layout changed after it was made renders as changed: the parts made once are made again")
    func changedAfterInit() {
        var layout = PageLayout(title: "A")
        layout.stylesheets.append("/late.css")
        layout.scripts = []
        layout.bodyClass = "late"
        layout.language = "fr"
        layout.icon = "/late.ico"
        layout.title = "B"
        let html = page(layout)
        #expect(html.contains("<html lang=\"fr\">"))
        #expect(html.contains("<title>B</title>\n<link rel=\"icon\" href=\"/late.ico\"><link rel=\"stylesheet\" href=\"/late.css\">\n</head>"))
        #expect(!html.contains("<script"))
        #expect(html.contains("<body class=\"late\" data-napkin-stream="))
    }

    @Test("without a tab the body names none, and the bytes a response sends are the document's")
    func noTabAndBytes() {
        let layout = PageLayout(title: "T")
        let html = layout.render(body: "<p>x</p>", csrfToken: "c", eventID: 0, eventsPath: "/e\"v").rendered
        #expect(html.hasSuffix("""
            <body data-napkin-stream="/e&quot;v" data-napkin-csrf="c" data-napkin-event-id="0">
            <p>x</p>
            </body>
            </html>
            """))
        let bytes = layout.renderedBytes(body: "<p>x</p>", csrfToken: "c", eventID: 12, eventsPath: "/e", tabID: "t<", pageTitle: "P&")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("<!doctype html>\n"))
        #expect(text.contains("<title>P&amp;</title>"))
        #expect(text.hasSuffix("<body data-napkin-stream=\"/e\" data-napkin-tab=\"t&lt;\" data-napkin-csrf=\"c\" data-napkin-event-id=\"12\">\n<p>x</p>\n</body>\n</html>"))
    }
}
