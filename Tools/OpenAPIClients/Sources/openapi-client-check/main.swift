// Calls each product's demo server through the client swift-openapi-generator builds from that
// product's OpenAPI document: signs in as the demo does, then reads and writes. Fails when a call
// answers a status the document does not describe, a status the flow does not expect, or a body the
// generated types cannot decode.
//
//   openapi-client-check [--nuvie URL] [--savry URL] [--chat URL] [--news URL]
//
// Each URL is a running demo server (`<product> serve --demo`, fresh data directory); at least one.
// scripts/openapi-clients.sh starts all four and runs this.
import Foundation

let usage = "usage: openapi-client-check [--nuvie URL] [--savry URL] [--chat URL] [--news URL]"
let checks: [String: @Sendable (ProductCheck) async throws -> Void] = [
    "nuvie": checkNuvie, "savry": checkSavry, "chat": checkChat, "news": checkNews,
]
let order = ["nuvie", "savry", "chat", "news"]

var servers: [String: URL] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard flag.hasPrefix("--"), checks[String(flag.dropFirst(2))] != nil,
        let value = arguments.popFirst(), let url = URL(string: value), url.scheme != nil
    else {
        FileHandle.standardError.write(Data("\(usage)\n".utf8))
        exit(2)
    }
    servers[String(flag.dropFirst(2))] = url
}
if servers.isEmpty {
    FileHandle.standardError.write(Data("\(usage)\n".utf8))
    exit(2)
}

var failures: [String] = []
var summary: [String] = []
for product in order {
    guard let url = servers[product], let check = checks[product] else { continue }
    let run = ProductCheck(product: product, serverURL: url)
    do {
        try await check(run)
        summary.append("\(product): \(await run.calls) calls answered as documented and decoded")
    } catch {
        print("FAILED \(error)")
        failures.append("\(product): FAILED after \(await run.calls) good calls: \(error)")
    }
}
print("openapi-client-check summary")
for line in summary + failures { print("  \(line)") }
exit(failures.isEmpty ? 0 : 1)
