import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory napkin-feature Name`:
/// writes a new napkin and its test, from the templates in this folder
/// (a plugin cannot import napkin's modules). See ``Options/usage``.
@main
struct NapkinFeature: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        // A refusal is thrown: SwiftPM prints it as one error line and exits non-zero.
        try run(package: context.package, arguments: arguments)
    }

    private func run(package: Package, arguments: [String]) throws(FeatureError) {
        guard let options = try Options.parse(arguments) else {
            print(Options.usage)
            return
        }
        let names = Names(name: options.name)
        let destination = try Destination(package: package, options: options)
        let scan = SourceScan(folder: destination.target.directoryURL)
        let hint = try options.parent.map { parent throws(FeatureError) in
            try ParentHint(named: parent, in: scan, target: destination.target.name, child: names, headless: options.headless)
        }

        let folder = destination.target.directoryURL.appending(path: options.name, directoryHint: .isDirectory)
        var files = names.sources(headless: options.headless, split: options.split).map {
            (url: folder.appending(path: $0.name), text: $0.text)
        }
        if let tests = destination.tests {
            let module = destination.target.moduleName
            files.append((
                tests.directoryURL.appending(path: "\(names.suite).swift"),
                options.headless ? names.headlessTest(module: module) : names.viewTest(module: module)))
        }
        let root = package.directoryURL
        try refuseExisting(folder: folder, files: files.map(\.url), names: names, scan: scan, tests: destination.tests, root: root)
        try write(folder: folder, files: files)

        print("napkin-feature: wrote \(options.headless ? "the headless napkin" : "the napkin") \(options.name) into \(destination.target.name):")
        for file in files { print("  " + relative(file.url, to: root)) }
        if destination.tests != nil { print("Run its test: swift test --filter \(names.suite)") }
        print("\n" + (hint ?? ParentHint()).text(for: names, headless: options.headless, root: root))
    }

    /// Refuses a napkin whose folder, files, types or test are there already.
    private func refuseExisting(
        folder: URL, files: [URL], names: Names, scan: SourceScan, tests: (any SourceModuleTarget)?, root: URL
    ) throws(FeatureError) {
        let taken = { (url: URL) in FeatureError("\(relative(url, to: root)) exists already: choose another name (nothing was written)") }
        for url in [folder] + files where FileManager.default.fileExists(atPath: url.path) {
            throw taken(url)
        }
        for file in names.files(headless: false) + names.files(headless: true) {
            if let existing = scan.file(named: file) { throw taken(existing) }
        }
        let testScan = tests.map { SourceScan(folder: $0.directoryURL) }
        let types = Set(names.types(headless: false) + names.types(headless: true)).sorted()
        for (type, scan) in types.map({ ($0, scan) }) + [(names.suite, testScan)] {
            if let existing = scan?.file(declaring: type) {
                throw FeatureError("\(relative(existing, to: root)) declares \(type) already: choose another name (nothing was written)")
            }
        }
    }

    private func write(folder: URL, files: [(url: URL, text: String)]) throws(FeatureError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            for file in files {
                try Data(file.text.utf8).write(to: file.url, options: .withoutOverwriting)
            }
        } catch {
            throw FeatureError("could not write the napkin: \(error.localizedDescription)")
        }
    }
}
