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
}
