import NapkinServe

// Rib House: `swift run RibHouse`, then open http://127.0.0.1:8080
// (`swift run RibHouse --help` lists the flags).

extension RibHouseApp: ServedApp {}

let pitInterval = ServeFlag("--pit-interval", value: "MS", help: "how often the pit moves, in milliseconds (2000)")
await ServeCommand("RibHouse", title: "Rib House", flags: [pitInterval]).run(configuration: RibHouseApp.configuration) { setup in
    RibHouseApp.make(
        configuration: setup.configuration,
        publicDirectory: setup.options.publicDirectory ?? RibHouseApp.defaultPublicDirectory(),
        pitInterval: try setup.options.milliseconds(pitInterval.name) ?? .seconds(2),
        bus: setup.bus,
        leases: setup.leases)
}
