import Testing
@testable import NapkinWeb

/// The markup of each field helper: the label tied to the control, the
/// value shown, the message element and the ARIA wiring, and hostile
/// values escaped wherever they land.
@Suite("Form fields", .timeLimit(.minutes(1)))
struct FormFieldTests {
    static let hostile = "\"><script>alert('x')</script>&"
    static let escaped = "&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;"

    static func markup(
        _ kind: FormField, name: String = "name", label: String = "Name", value: String = "", checked: Bool = false,
        message: String? = nil, className: String? = nil, attributes: HTML = .empty
    ) -> String {
        FormField.markup(
            kind, name: name, label: label, id: "f-1", value: value, checked: checked, message: message, className: className,
            attributes: attributes
        ).rendered
    }

    static let hiddenMessage = "<p class=\"napkin-field-message\" id=\"f-1-message\" data-napkin-message=\"name\" aria-live=\"polite\" hidden></p>"

    @Test("a text field: label for the control, the value, and an empty hidden message element")
    func text() {
        #expect(Self.markup(.text, value: "Ada") == "<label for=\"f-1\">Name</label><input type=\"text\" id=\"f-1\" name=\"name\" value=\"Ada\">" + Self.hiddenMessage)
    }

    @Test("email and number fields have their input types")
    func inputTypes() {
        #expect(Self.markup(.email).contains("<input type=\"email\" id=\"f-1\" name=\"name\" value=\"\">"))
        #expect(Self.markup(.number, value: "3").contains("<input type=\"number\" id=\"f-1\" name=\"name\" value=\"3\">"))
    }

    @Test("a message marks the control invalid, describes it by the message element, and shows")
    func message() {
        let html = Self.markup(.text, value: "x", message: "Too short.")
        #expect(html.contains("<input type=\"text\" id=\"f-1\" name=\"name\" aria-invalid=\"true\" aria-describedby=\"f-1-message\" value=\"x\">"))
        #expect(html.hasSuffix("<p class=\"napkin-field-message\" id=\"f-1-message\" data-napkin-message=\"name\" aria-live=\"polite\">Too short.</p>"))
        #expect(!Self.markup(.text).contains("aria-invalid"))
        #expect(!Self.markup(.text).contains("aria-describedby"))
    }

    @Test("the app's class and attributes go on the control")
    func classAndAttributes() {
        let html = Self.markup(.text, className: "wide", attributes: "maxlength=\"\(40)\" required")
        #expect(html.contains("<input type=\"text\" id=\"f-1\" name=\"name\" class=\"wide\" maxlength=\"40\" required value=\"\">"))
    }

    @Test("a textarea holds its value as text, and keeps a leading newline the parser would drop")
    func textarea() {
        #expect(Self.markup(.textarea, value: "Hi").contains("<textarea id=\"f-1\" name=\"name\">Hi</textarea>"))
        #expect(Self.markup(.textarea, value: "\nHi").contains("<textarea id=\"f-1\" name=\"name\">\n\nHi</textarea>"))
    }

    @Test("a select marks the option whose value is the field's")
    func select() {
        let html = Self.markup(.select([.init("s", label: "Small"), .init("l", label: "Large")]), value: "l")
        #expect(html.contains("<select id=\"f-1\" name=\"name\"><option value=\"s\">Small</option><option value=\"l\" selected>Large</option></select>"))
        #expect(html.hasPrefix("<label for=\"f-1\">Name</label>"))
    }

    @Test("a checkbox posts on, is checked as told, and has its label after it")
    func checkbox() {
        #expect(Self.markup(.checkbox, checked: true).hasPrefix("<input type=\"checkbox\" id=\"f-1\" name=\"name\" value=\"on\" checked><label for=\"f-1\">Name</label>"))
        #expect(!Self.markup(.checkbox).contains("checked"))
    }

    @Test("a file field never shows a value")
    func file() {
        let html = Self.markup(.file, value: "secret.png", attributes: "accept=\"image/png\"")
        #expect(html.contains("<input type=\"file\" id=\"f-1\" name=\"name\" accept=\"image/png\">"))
        #expect(!html.contains("secret.png"))
    }

    @Test("hostile names, labels, values, options and messages are escaped in every kind", arguments: [
        FormField.text, .email, .number, .textarea, .checkbox, .file, .select([.init(Self.hostile, label: Self.hostile)]),
    ])
    func escaping(kind: FormField) {
        let html = Self.markup(kind, name: Self.hostile, label: Self.hostile, value: Self.hostile, message: Self.hostile)
        #expect(!html.contains("<script>"))
        #expect(!html.contains("'x'"))
        #expect(html.contains(Self.escaped))
        // Every attribute value stays inside its quotes: no quote from the
        // value closes one early.
        #expect(!html.contains("\"\">"))
    }
}
