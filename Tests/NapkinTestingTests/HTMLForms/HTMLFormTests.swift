import NapkinTesting
import Testing

/// A test reads a page's forms as a browser submits them.
@Suite("HTML forms", .timeLimit(.minutes(1)))
struct HTMLFormTests {
    @Test("a select posts its selected option, else its first; a select without options posts nothing")
    func selects() throws {
        let html = """
            <form action="/a" method="post"><select name="size"><option value="s">Small</option>\
            <option value="l" selected>Large</option></select><select name="side"><option value="slaw">Slaw</option>\
            <option>Beans</option></select><select name="none"></select><input name="after" value="1">\
            <button type="submit">Go</button></form>
            """
        let form = try #require(HTMLForm.parseAll(html).first)
        #expect(form.fields.map { "\($0.name)=\($0.value)" } == ["size=l", "side=slaw", "after=1"])
    }

    @Test("a select at the end of a form posts too")
    func lastSelect() throws {
        let form = try #require(HTMLForm.parseAll("<form><select name=\"a\"><option value=\"one\">One</option></select></form>").first)
        #expect(form.value(of: "a") == "one")
    }
}
