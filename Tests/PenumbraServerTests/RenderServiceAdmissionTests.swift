// RenderService's admission and stop: a place reserved before the job exists counts against the
// queue and is given back when dropped, and a shutdown that cancels returns within its timeout
// even when a render thread does not come back.
import Dispatch
import Foundation
import Penumbra
import XCTest

final class RenderServiceAdmissionTests: XCTestCase {
    /// How `reserve()` fails now; nil when it succeeds (the place is given back at once).
    private static func reserveFailure(_ service: RenderService) -> RenderService.Failure? {
        do {
            _ = try service.reserve()
            return nil
        } catch {
            return error as? RenderService.Failure
        }
    }

    func testShutdownDoesNotWaitForeverForAStuckRenderThread() async throws {
        let service = try RenderService(.init(backend: .cpu, workers: 1, queueLimit: 4))
        _ = await service.waitUntilReady()
        // A job that ignores its cancellation until the test lets it go.
        let release = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let job = RenderService.Job(prepare: {
            entered.signal()
            release.wait()
            return try Scene.decode(ServerFixtures.small, baseDirectory: "/nonexistent").displayList()
        })
        let rendering = Task { try await service.render(job) }
        XCTAssertEqual(entered.wait(timeout: .now() + 30), .success)
        let queued = Task { try await service.render(job) }
        let waiting = await ServerFixtures.eventually(10) { service.statistics.queued == 1 }
        XCTAssertTrue(waiting)

        let start = ContinuousClock.now
        let ended = service.shutdown(cancellingRunningJobs: true, waitingAtMost: .milliseconds(300))
        XCTAssertFalse(ended, "the stuck thread cannot have ended")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10), "shutdown waited for the stuck thread")
        for task in [rendering, queued] {
            do {
                _ = try await task.value
                XCTFail("a job was done after the service was stopped")
            } catch let failure as RenderService.Failure {
                XCTAssertEqual(failure, .cancelledAtShutdown)
            }
        }
        XCTAssertEqual(Self.reserveFailure(service), .shuttingDown)

        // Let the thread go: a later shutdown sees it end.
        release.signal()
        XCTAssertTrue(service.shutdown(waitingAtMost: .seconds(30)))
    }

    func testReservationsCountAgainstTheQueueAndAreGivenBack() async throws {
        // One idle worker and one place to wait: two reservations, not three.
        let service = try RenderService(.init(backend: .cpu, workers: 1, queueLimit: 1))
        _ = await service.waitUntilReady()
        do {
            let first = try service.reserve()
            let second = try service.reserve()
            XCTAssertEqual(service.statistics.reserved, 2)
            XCTAssertEqual(Self.reserveFailure(service), .queueFull)
            // A reservation handed to a job is used; one dropped is given back.
            let output = try await service.render(.init(prepare: {
                try Scene.decode(ServerFixtures.small, baseDirectory: "/nonexistent").displayList()
            }), using: first)
            XCTAssertFalse(output.bytes.isEmpty)
            XCTAssertEqual(service.statistics.reserved, 1)
            _ = consume second
        }
        XCTAssertEqual(service.statistics.reserved, 0)
        XCTAssertNil(Self.reserveFailure(service))
        XCTAssertTrue(service.shutdown(waitingAtMost: .seconds(30)))
    }
}
