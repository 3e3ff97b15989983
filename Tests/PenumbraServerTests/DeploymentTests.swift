// deploy/ cannot run here (no Docker, no cluster): its structure is checked instead. The
// manifests are JSON (kubectl reads JSON as well as YAML), parsed with Foundation; their probe
// paths are asked of the real router, and ports, args and the Dockerfile must agree; the batch
// Job's command, volume, shard variables and flags must agree with the image and `penumbra batch`.
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

    /// The batch Job: an Indexed Job whose pods each render their shard of one manifest on a
    /// shared volume. Its command is the image's binary, its paths lie on the mounted claim, its
    /// JOB_COMPLETIONS is its `completions` (batch's --shard default reads it), and every flag it
    /// passes is one `penumbra batch --help` lists.
    func testBatchJobIsAnIndexedJobOverTheSharedVolume() throws {
        let job = try manifest("batch-job.json")
        XCTAssertEqual(job["kind"] as? String, "Job")
        XCTAssertEqual(job["apiVersion"] as? String, "batch/v1")
        XCTAssertEqual(value(job, "spec.completionMode") as? String, "Indexed")
        let completions = try XCTUnwrap(value(job, "spec.completions") as? Int)
        let parallelism = try XCTUnwrap(value(job, "spec.parallelism") as? Int)
        XCTAssertTrue((1...completions).contains(parallelism), "parallelism \(parallelism) of \(completions)")
        XCTAssertTrue(value(job, "spec.backoffLimitPerIndex") is Int || value(job, "spec.backoffLimit") is Int)
        XCTAssertEqual(value(job, "spec.template.spec.restartPolicy") as? String, "Never")
        // A line that fails (1) or a bad manifest (2) fails again on a retry: those end the index at once.
        let rules = try XCTUnwrap(value(job, "spec.podFailurePolicy.rules") as? [[String: Any]])
        let failIndex = try XCTUnwrap(rules.first { $0["action"] as? String == "FailIndex" })
        XCTAssertEqual(Set(value(failIndex, "onExitCodes.values") as? [Int] ?? []), [1, 2])

        let container = try XCTUnwrap(value(job, "spec.template.spec.containers.0") as? [String: Any])
        XCTAssertEqual(value(failIndex, "onExitCodes.containerName") as? String, container["name"] as? String)
        let dockerfile = try String(contentsOf: deploy.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let command = try XCTUnwrap(container["command"] as? [String])
        XCTAssertEqual(command.count, 1)
        XCTAssertTrue(dockerfile.contains("COPY --from=build /out/penumbra \(command[0])"), "the command is the image's binary")
        let args = try XCTUnwrap(container["args"] as? [String])
        XCTAssertEqual(args.first, "batch")
        let manifestPath = try XCTUnwrap(args.count > 1 ? args[1] : nil)
        let out = try XCTUnwrap(argument(args, "--out"))

        // Both paths lie on the volume mounted from the shared claim.
        let mounts = try XCTUnwrap(container["volumeMounts"] as? [[String: Any]])
        let volumes = try XCTUnwrap(value(job, "spec.template.spec.volumes") as? [[String: Any]])
        for path in [manifestPath, out] {
            let mount = try XCTUnwrap(mounts.first { path.hasPrefix(($0["mountPath"] as? String ?? "\u{0}") + "/") }, "\(path) is on no mount")
            XCTAssertNotEqual(mount["readOnly"] as? Bool, true, "\(path): the outputs and the log are written there")
            let volume = try XCTUnwrap(volumes.first { $0["name"] as? String == mount["name"] as? String }, "volume \(mount["name"] ?? "")")
            let claim = try XCTUnwrap(value(volume, "persistentVolumeClaim.claimName") as? String)
            let pvc = try manifest("batch-pvc.json")
            XCTAssertEqual(pvc["kind"] as? String, "PersistentVolumeClaim")
            XCTAssertEqual(value(pvc, "metadata.name") as? String, claim)
            XCTAssertTrue((value(pvc, "spec.accessModes") as? [String] ?? []).contains("ReadWriteMany"),
                          "pods on several nodes write to one volume")
        }

        // The shard: the completion index from the Job's annotation, the count equal to completions.
        let env = try XCTUnwrap(container["env"] as? [[String: Any]])
        let byName = Dictionary(env.compactMap { e in (e["name"] as? String).map { ($0, e) } }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(byName["JOB_COMPLETIONS"]?["value"] as? String, String(completions))
        XCTAssertEqual(value(byName["JOB_COMPLETION_INDEX"], "valueFrom.fieldRef.fieldPath") as? String,
                       "metadata.annotations['batch.kubernetes.io/job-completion-index']")
        XCTAssertNil(argument(args, "--shard"), "--shard would override the index for every pod")

        for kind in ["requests", "limits"] {
            for resource in ["cpu", "memory"] {
                XCTAssertNotNil(value(container, "resources.\(kind).\(resource)") as? String, "resources.\(kind).\(resource)")
            }
        }
        // One worker per requested core.
        XCTAssertEqual(argument(args, "--jobs"), value(container, "resources.requests.cpu") as? String)

        // Every flag is one the built command knows.
        let help = try batchHelp()
        for flag in args where flag.hasPrefix("--") {
            XCTAssertTrue(help.contains(flag), "penumbra batch --help does not list \(flag)")
        }
    }

    /// `penumbra batch --help` from the built tool.
    /// The built `penumbra` beside the test bundle.
    private func builtTool() throws -> URL {
        let dir = Bundle.main.bundleURL
        let candidates = [dir.appendingPathComponent("penumbra"), dir.deletingLastPathComponent().appendingPathComponent("penumbra")]
        return try XCTUnwrap(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "the built penumbra")
    }

    private func batchHelp() throws -> String { try shell([try builtTool().path, "batch", "--help"]) }

    private struct CommandFailed: Error { let command: [String] }

    /// What `command` (looked up on PATH) prints on standard output; throws when it fails.
    private func shell(_ command: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let pipe = Pipe()
        process.standardOutput = pipe; process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CommandFailed(command: command) }
        return text
    }

    /// The words of the `apt-get install` in the Dockerfile's stage `index` (0: build, 1: runtime).
    private func dockerPackages(stage index: Int) throws -> Set<String> {
        let text = try String(contentsOf: deploy.appendingPathComponent("Dockerfile"), encoding: .utf8)
        // The text before the first FROM is the header comment: stage 0 is the second piece.
        let stage = text.components(separatedBy: "\nFROM ")[index + 1]
        guard let install = stage.range(of: "apt-get install"), let end = stage.range(of: "rm -rf", range: install.upperBound..<stage.endIndex) else {
            return []
        }
        return Set(stage[install.upperBound..<end.lowerBound].split(whereSeparator: { " \\\n&".contains($0) })
            .map(String.init).filter { !$0.hasPrefix("-") && $0 != "apt-get" && $0 != "install" })
    }

    /// The image builds and runs: its build stage installs every -dev package CI installs, and its
    /// runtime stage the Debian package of every shared library the built `penumbra` links
    /// (but the C runtime and the Swift runtime, which the image links statically).
    func testDockerfileInstallsWhatTheBinaryLinks() throws {
        let ci = try String(contentsOf: deploy.deletingLastPathComponent().appendingPathComponent(".ci/run"), encoding: .utf8)
        let ciDev = ci.split(whereSeparator: { " \n()".contains($0) }).map(String.init).filter { $0.hasSuffix("-dev") }
        XCTAssertGreaterThan(ciDev.count, 10)
        let build = try dockerPackages(stage: 0), runtime = try dockerPackages(stage: 1)
        XCTAssertEqual(Set(ciDev).subtracting(build).sorted(), [], "-dev packages CI installs and the build stage does not")
        XCTAssertTrue(runtime.contains("fonts-noto-cjk"))

        let binary = try builtTool()
        let needed = try shell(["objdump", "-p", binary.path]).split(separator: "\n")
            .filter { $0.contains("NEEDED") }.compactMap { $0.split(separator: " ").last.map(String.init) }
        let resolved = try shell(["ldd", binary.path]).split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: " ")
            guard parts.count >= 3, parts[1] == "=>" else { return nil }
            return (parts[0].trimmingCharacters(in: .whitespaces), String(parts[2]))
        }
        let runtimeOfTheBaseImage: Set<String> = ["libc6", "libgcc-s1", "libstdc++6"]
        var checked = 0
        for library in needed {
            guard let path = resolved.first(where: { $0.0 == library })?.1, !path.hasPrefix("/opt/"),
                  !library.hasPrefix("libswift"), !library.hasPrefix("libFoundation"),
                  !["libdispatch.so", "libBlocksRuntime.so"].contains(library) else { continue }
            // usrmerge: dpkg knows a library by the path its package installed it at.
            let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            let candidates = [path, "/usr" + path, real, real.hasPrefix("/usr/") ? String(real.dropFirst(4)) : "/usr" + real]
            let owner = candidates.lazy.compactMap { try? self.shell(["dpkg", "-S", $0]) }.first
            let package = try XCTUnwrap(owner, "no Debian package owns \(path)").split(separator: ":").first.map(String.init) ?? ""
            checked += 1
            XCTAssertTrue(runtimeOfTheBaseImage.contains(package) || runtime.contains(package),
                          "the runtime stage lacks \(package), which provides \(library)")
        }
        XCTAssertGreaterThan(checked, 10, "the binary's libraries were found")
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
