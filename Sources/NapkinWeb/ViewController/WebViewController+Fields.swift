extension WebViewController {
    /// A labelled field of a form of the action `action`: the label, the
    /// control and its message, wired for assistive technology.
    ///
    /// ```swift
    /// form(.order, content: """
    ///     \(field("name", label: "Name", of: .order, attributes: "maxlength=\"40\" autocomplete=\"name\""))\
    ///     \(field("size", .select([.init("s", label: "Small"), .init("l", label: "Large")]), label: "Size", of: .order))\
    ///     <button>Order</button>
    ///     """)
    /// ```
    ///
    /// After a refused post of the action (``problem(for:)``, with the same
    /// `key`), the control shows what was posted instead of `value` (a
    /// checkbox: whether it was checked instead of `checked`); when the
    /// problem names this field, its message shows beside the control (and
    /// not at the top of the form), the control is `aria-invalid` and its
    /// `aria-describedby` names the message. The label's `for` is the
    /// control's `id` (unique in the page unless given). The message
    /// element is there, hidden, even with nothing to say, so napkin's
    /// client can fill it in while the person types.
    ///
    /// `class` goes on the control; `attributes` (`maxlength`, `required`,
    /// `accept`, …) are written into it as given; everything interpolated
    /// is escaped. Wrap the result in the app's own markup as needed.
    public func field(
        _ name: String,
        _ kind: FormField = .text,
        label: String,
        of action: String,
        key: String? = nil,
        value: String = "",
        checked: Bool = false,
        id: String? = nil,
        class className: String? = nil,
        attributes: HTML = .empty
    ) -> HTML {
        var shown = (value: value, checked: checked, message: String?.none)
        if let problem = problem(for: action), problem.key == key {
            shown.value = problem.values[name] ?? ""
            shown.checked = problem.values(of: name).contains(FormField.checkedValue)
            if problem.field == name {
                shown.message = problem.message
                fieldMessages.insert(Self.formKey(action, key))
            }
        }
        return FormField.markup(
            kind, name: name, label: label, id: id ?? FragmentID.field(in: fragmentID, action: action, key: key, name: name),
            value: shown.value, checked: shown.checked, message: shown.message, className: className, attributes: attributes)
    }

    /// A labelled field of a form of `action` (see
    /// ``field(_:_:label:of:key:value:checked:id:class:attributes:)-(_,_,_,String,_,_,_,_,_,_)``).
    public func field<Input>(
        _ name: String,
        _ kind: FormField = .text,
        label: String,
        of action: FormAction<Input>,
        key: String? = nil,
        value: String = "",
        checked: Bool = false,
        id: String? = nil,
        class className: String? = nil,
        attributes: HTML = .empty
    ) -> HTML {
        field(
            name, kind, label: label, of: action.name, key: key, value: value, checked: checked, id: id, class: className,
            attributes: attributes)
    }

    /// A submit button labelled `label`; while its form's post is on its
    /// way, napkin's client disables it and shows `working` ("Saving…")
    /// instead, when given.
    public func submitButton(_ label: String, working: String? = nil, class className: String? = nil) -> HTML {
        let classAttribute: HTML? = className.map { " class=\"\($0)\"" }
        let workingAttribute: HTML? = working.map { " \(raw: WireProtocol.Attribute.working)=\"\($0)\"" }
        return "<button type=\"submit\"\(classAttribute)\(workingAttribute)>\(label)</button>"
    }
}
