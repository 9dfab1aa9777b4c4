import PackagePlugin

/// The target the napkin is written into, and the test target its test is
/// written into (none with `--no-tests`).
struct Destination {
    let target: any SourceModuleTarget
    let tests: (any SourceModuleTarget)?

    init(package: Package, options: Options) throws(FeatureError) {
        let modules = package.targets.compactMap { $0 as? any SourceModuleTarget }
        let target = try Self.target(options.target, among: modules, of: package)
        let needs = options.headless ? "napkin" : "NapkinWeb"
        guard Self.names(target.recursiveTargetDependencies).contains(needs) else {
            throw FeatureError("target \(target.name) cannot hold the napkin: it does not depend on \(needs), which the napkin imports")
        }
        self.target = target
        tests = options.writesTest ? try Self.tests(options.tests, of: target, among: modules, headless: options.headless) : nil
    }

    /// The target named `name`, or the first executable target.
    private static func target(
        _ name: String?, among modules: [any SourceModuleTarget], of package: Package
    ) throws(FeatureError) -> any SourceModuleTarget {
        guard let name else {
            guard let first = modules.first(where: { $0.kind == .executable }) else {
                throw FeatureError(
                    "package \(package.displayName) has no executable target: name the target with --target"
                        + " (SwiftPM leaves out a target with no source file yet: give a new one a main.swift first)")
            }
            return first
        }
        guard let found = modules.first(where: { $0.name == name }) else {
            let known = modules.filter { $0.kind != .test }.map(\.name).joined(separator: ", ")
            throw FeatureError(
                "no target \(name) in package \(package.displayName) (its targets: \(known.isEmpty ? "none" : known);"
                    + " SwiftPM leaves out a target with no source file yet: give a new one a main.swift first)")
        }
        guard found.kind != .test else {
            throw FeatureError("\(name) is a test target: pass it with --tests, and the target it tests with --target")
        }
        return found
    }

    /// The test target named `name`, or the first that depends on `target`
    /// (directly, else through another target).
    private static func tests(
        _ name: String?, of target: any SourceModuleTarget, among modules: [any SourceModuleTarget], headless: Bool
    ) throws(FeatureError) -> any SourceModuleTarget {
        let testTargets = modules.filter { $0.kind == .test }
        let dependsOnTarget = { (tests: any SourceModuleTarget) in tests.recursiveTargetDependencies.contains { $0.id == target.id } }
        let found: any SourceModuleTarget
        if let name {
            guard let named = testTargets.first(where: { $0.name == name }) else {
                let known = testTargets.map(\.name).joined(separator: ", ")
                throw FeatureError("no test target \(name) (the test targets: \(known.isEmpty ? "none" : known))")
            }
            guard dependsOnTarget(named) else {
                throw FeatureError("test target \(name) does not depend on \(target.name), so its tests cannot import it")
            }
            found = named
        } else {
            let direct = testTargets.first { tests in
                tests.dependencies.contains { if case .target(let dependency) = $0 { dependency.id == target.id } else { false } }
            }
            guard let chosen = direct ?? testTargets.first(where: dependsOnTarget) else {
                throw FeatureError("no test target depends on \(target.name): name one with --tests, or pass --no-tests")
            }
            found = chosen
        }
        if !headless, !names(found.recursiveTargetDependencies).contains("NapkinTesting") {
            throw FeatureError(
                "test target \(found.name) does not depend on NapkinTesting, which the test uses: add "
                    + "\".product(name: \"NapkinTesting\", package: \"napkin\")\" to its dependencies, or pass --no-tests")
        }
        return found
    }

    private static func names(_ targets: [any Target]) -> Set<String> {
        Set(targets.map(\.name))
    }
}
