// deploy/ cannot run here (no Docker, no cluster): its structure is checked instead. The
// manifests are JSON (kubectl reads JSON as well as YAML), parsed with Foundation; their probe
// paths are asked of the real router, and ports, args and the Dockerfile must agree.
import Foundation
import HummingbirdTesting
import PenumbraServer
import XCTest

final class DeploymentTests: XCTestCase {
    private let deploy = ServerFixtures.root.appendingPathComponent("deploy")

    private func manifest(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: deploy.appendingPathComponent("kubernetes/\(name)"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], name)
    }

    private func value(_ object: Any?, _ path: String) -> Any? {
        var current = object
        for key in path.split(separator: ".") {
            if let index = Int(key) { current = (current as? [Any]).flatMap { index < $0.count ? $0[index] : nil } } else {
                current = (current as? [String: Any])?[String(key)]
            }
        }
        return current
    }

    /// The value following `flag` in an argument list.
    private func argument(_ args: [String], _ flag: String) -> String? {
        args.firstIndex(of: flag).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil }
    }

    func testManifestsAgreeWithTheServer() async throws {
        let deployment = try manifest("deployment.json")
        XCTAssertEqual(deployment["kind"] as? String, "Deployment")
        let container = try XCTUnwrap(value(deployment, "spec.template.spec.containers.0") as? [String: Any])
        let args = try XCTUnwrap(container["args"] as? [String])
        let port = try XCTUnwrap(value(container, "ports.0.containerPort") as? Int)
        let portName = try XCTUnwrap(value(container, "ports.0.name") as? String)
        XCTAssertEqual(argument(args, "--port"), String(port))
        XCTAssertEqual(argument(args, "--host"), "0.0.0.0", "a pod must listen beyond its loopback")
        XCTAssertEqual(port, ServerConfiguration().port, "the container port is the server's default")

        let readiness = try XCTUnwrap(value(container, "readinessProbe.httpGet.path") as? String)
        let liveness = try XCTUnwrap(value(container, "livenessProbe.httpGet.path") as? String)
        XCTAssertEqual(readiness, "/readyz")
        XCTAssertEqual(liveness, "/healthz")
        for probe in ["readinessProbe", "livenessProbe"] {
            let probePort = value(container, "\(probe).httpGet.port")
            XCTAssertTrue((probePort as? String) == portName || (probePort as? Int) == port, "\(probe) port")
        }
        for kind in ["requests", "limits"] {
            for resource in ["cpu", "memory"] {
                XCTAssertNotNil(value(container, "resources.\(kind).\(resource)") as? String, "resources.\(kind).\(resource)")
            }
        }
        // The pod gets more time to stop than the server takes to drain.
        let grace = try XCTUnwrap(value(deployment, "spec.template.spec.terminationGracePeriodSeconds") as? Int)
        XCTAssertGreaterThan(Double(grace), Double(try XCTUnwrap(argument(args, "--drain-seconds"))) ?? .infinity)
        let labels = try XCTUnwrap(value(deployment, "spec.template.metadata.labels") as? [String: String])
        XCTAssertEqual(value(deployment, "spec.selector.matchLabels") as? [String: String], labels)

        let service = try manifest("service.json")
        XCTAssertEqual(service["kind"] as? String, "Service")
        XCTAssertEqual(value(service, "spec.selector") as? [String: String], labels)
        let target = value(service, "spec.ports.0.targetPort")
        XCTAssertTrue((target as? String) == portName || (target as? Int) == port)

        let hpa = try manifest("hpa.json")
        XCTAssertEqual(hpa["kind"] as? String, "HorizontalPodAutoscaler")
        XCTAssertEqual(value(hpa, "spec.scaleTargetRef.kind") as? String, "Deployment")
        XCTAssertEqual(value(hpa, "spec.scaleTargetRef.name") as? String, value(deployment, "metadata.name") as? String)
        XCTAssertEqual(value(hpa, "spec.metrics.0.resource.name") as? String, "cpu")

        let gpu = try manifest("gpu-patch.json")
        XCTAssertNotNil(value(gpu, "spec.template.spec.nodeSelector") as? [String: String])
        let limits = try XCTUnwrap(value(gpu, "spec.template.spec.containers.0.resources.limits") as? [String: String])
        XCTAssertEqual(limits["nvidia.com/gpu"], "1")

        // The probe paths answer 200 on a ready server.
        let server = try await ServerFixtures.server()
        try await server.application().test(.router) { client in
            for path in [readiness, liveness] {
                let response = try await client.get(path)
                XCTAssertEqual(response.status, .ok, path)
            }
        }
        server.service.shutdown()
    }

    func testDockerfileIsMultiStageWithStaticStdlib() throws {
        let text = try String(contentsOf: deploy.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let froms = text.split(separator: "\n").filter { $0.hasPrefix("FROM ") }
        XCTAssertEqual(froms.count, 2)
        XCTAssertTrue(froms[0].hasPrefix("FROM swift:") && froms[0].hasSuffix(" AS build"), String(froms[0]))
        XCTAssertTrue(froms[1].hasPrefix("FROM debian:") && froms[1].contains("-slim"), String(froms[1]))
        XCTAssertTrue(text.contains("--static-swift-stdlib"))
        XCTAssertTrue(text.contains("COPY --from=build"))
        XCTAssertTrue(text.contains("EXPOSE \(ServerConfiguration().port)"))
        XCTAssertTrue(text.contains("libpng16-16") && text.contains("libegl1") && text.contains("fonts-"))
        XCTAssertTrue(text.contains("ENTRYPOINT [\"/usr/local/bin/penumbra\", \"serve\"]"))
    }
}
