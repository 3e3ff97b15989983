// RenderService as a Swift API: the GPU-to-CPU fallback, deadlines in the queue, shutdown.
import Foundation
import Penumbra
import Synchronization
import XCTest

final class RenderServiceTests: XCTestCase {
    private static func list(_ json: String) -> @Sendable () throws -> DisplayList {
        { try Scene.decode(Array(json.utf8), baseDirectory: "/nonexistent").displayList() }
    }

    func testGPUFailureFallsBackToTheCPUAndIsCounted() async throws {
        // llvmpipe (and any GPU) refuses a canvas wider than its texture size: the worker's CPU renderer takes it.
        let service = try RenderService(.init(backend: .gpu, workers: 1, queueLimit: 2))
        defer { service.shutdown() }
        let ready = await service.waitUntilReady()
        XCTAssertTrue(ready)
        let wide = ##"{"format":"penumbra-scene","version":1,"size":[40000,2],"background":"#FF0000","ops":[]}"##
        let output = try await service.render(.init(prepare: Self.list(wide), encode: { bitmap in [UInt8(bitmap.width % 256)] }))
        XCTAssertEqual(output.backend, .cpu)
        XCTAssertTrue(output.fellBack)
        XCTAssertEqual(service.statistics.gpuFallbacks, 1)
        let small = ##"{"format":"penumbra-scene","version":1,"size":[8,8],"background":"#FF0000","ops":[]}"##
        let gpu = try await service.render(.init(prepare: Self.list(small)))
        XCTAssertEqual(gpu.backend, .gpu)
        XCTAssertFalse(gpu.fellBack)
        let cpu = try await service.render(.init(preference: .cpu, prepare: Self.list(small)))
        XCTAssertEqual(cpu.backend, .cpu)
        XCTAssertEqual(cpu.bytes, gpu.bytes, "a solid canvas is the same on both renderers")
    }

    /// A job decoding its scene gets the environment of the renderer it will render on: a GPU
    /// job's filtered images are made by the worker's GPU renderer (no other context), a CPU
    /// job's by the CPU evaluator; the bytes are the same.
    func testScenesAreDecodedWithTheirFiltersOnTheJobsRenderer() async throws {
        let service = try RenderService(.init(backend: .gpu, workers: 1, queueLimit: 2))
        defer { service.shutdown() }
        let ready = await service.waitUntilReady()
        XCTAssertTrue(ready)
        let json = ##"{"format":"penumbra-scene","version":1,"size":[24,24],"images":{"ramp":{"generator":"linearGradient","start":[0,0],"end":[24,24],"stops":[[0,"#FF000080"],[1,"#0000FF"]],"extent":[0,0,24,24]},"soft":{"input":"ramp","filters":[{"filter":"sepiaTone","intensity":0.7},{"filter":"gaussianBlur","radius":2}]}},"ops":[{"op":"drawImage","image":"soft","rect":[0,0,24,24]}]}"##
        let filteredOnGPU = Mutex<[Bool]>([])
        func job(_ preference: RenderService.Preference) -> RenderService.Job {
            .init(preference: preference, decoding: { environment in
                filteredOnGPU.withLock { $0.append(environment.filterRenderer != nil && environment.filterRendererName != "cpu") }
                return try Scene.decode(Array(json.utf8), baseDirectory: "/nonexistent", environment: environment).displayList()
            })
        }
        let gpu = try await service.render(job(.gpu))
        let cpu = try await service.render(job(.cpu))
        XCTAssertEqual(gpu.backend, .gpu)
        XCTAssertEqual(cpu.backend, .cpu)
        XCTAssertEqual(filteredOnGPU.withLock { $0 }, [true, false])
        XCTAssertEqual(gpu.bytes, cpu.bytes)
    }

    func testDeadlineCountsTimeInTheQueue() async throws {
        let service = try RenderService(.init(backend: .cpu, workers: 1, queueLimit: 4))
        defer { service.shutdown() }
        let heavy = String(decoding: ServerFixtures.heavy(), as: UTF8.self)
        let blocking = RenderService.Job(deadline: .now + .seconds(2), prepare: Self.list(heavy))
        let blocker = Task { try await service.render(blocking) }
        while service.statistics.inFlight == 0 { try await Task.sleep(for: .milliseconds(2)) }
        let small = ##"{"format":"penumbra-scene","version":1,"size":[8,8],"ops":[]}"##
        do {
            _ = try await service.render(.init(deadline: .now + .milliseconds(100), prepare: Self.list(small)))
            XCTFail("a job waiting past its deadline must fail")
        } catch let failure as RenderService.Failure {
            XCTAssertEqual(failure, .deadlineExceeded)
        }
        XCTAssertEqual(service.statistics.queued, 0, "an expired job leaves the queue at once")
        blocker.cancel()
        do { _ = try await blocker.value; XCTFail("a cancelled task's render must fail") } catch let failure as RenderService.Failure {
            XCTAssertEqual(failure, .cancelled)
        }
    }

    func testShutdownRefusesNewJobs() async throws {
        let service = try RenderService(.init(backend: .cpu, workers: 2, queueLimit: 4))
        service.shutdown()
        XCTAssertFalse(service.isReady)
        do {
            _ = try await service.render(.init(prepare: Self.list(##"{"format":"penumbra-scene","version":1,"size":[8,8],"ops":[]}"##)))
            XCTFail("a stopped service must refuse")
        } catch let failure as RenderService.Failure {
            XCTAssertEqual(failure, .shuttingDown)
        }
    }
}
