import EventSourcing
import Foundation
import Hummingbird
import ReadModels

/// What an operator does from the console: a user's history and their erasure, a replay followed to
/// its swap, a backup.
extension ConsoleController {
    /// `?id=N[&offset=K]`: everything the user caused or that concerns them, newest first.
    func user(_ request: Request, context: ConsoleContext<Context>) async throws -> Response {
        let raw = request.uri.queryParameters["id"].map(String.init) ?? ""
        guard !raw.isEmpty else { return pages.page("user", title: "Users", [:], session: context.session) }
        guard let id = Int64(raw), id > 0 else {
            return pages.problem(.badRequest, "A user id is a positive whole number, not \(raw)", session: context.session)
        }
        let entries = try audit.user(id)
        let offset = request.uri.queryParameters["offset"].flatMap { Int($0) }.map { max(0, $0) } ?? 0
        let shown = entries.reversed().dropFirst(offset).prefix(Self.pageSize)
        let erased = entries.contains { $0.type == UserErased.typeName }
        let user: [String: Any?] = [
                "id": id, "total": entries.count, "erased": erased, "canErase": !erased && !entries.isEmpty,
                "events": shown.map(EventRow.init),
                "older": offset + shown.count < entries.count ? ConsolePages.link("users", ["id": raw, "offset": String(offset + shown.count)]) : nil,
        ]
        let values: [String: Any] = ["userId": raw, "user": user.compactMapValues { $0 }]
        return pages.page("user", title: "User \(id)", values, session: context.session)
    }

    func eraseUser(_ request: Request, context: ConsoleContext<Context>) async throws -> Response {
        let form = context.form
        guard let id = form["id"].flatMap(Int64.init), id > 0 else {
            return pages.problem(.badRequest, "A user id is a positive whole number", session: context.session)
        }
        guard form["confirm"]?.trimmingCharacters(in: .whitespaces) == String(id) else {
            return pages.problem(.badRequest, "To erase user \(id), type their id again in the confirmation box. Nothing was erased.", session: context.session)
        }
        let position: UInt64
        do {
            position = try await erase(id)
        } catch UserErasureFailure.unknownUser {
            return pages.problem(.notFound, "No user \(id). Nothing was erased.", session: context.session)
        } catch UserErasureFailure.alreadyErased {
            return pages.problem(.conflict, "User \(id) is already erased.", session: context.session)
        } catch OperatorRequestError.userNotFound(let message) {
            return pages.problem(.notFound, "\(message). Nothing was erased.", session: context.session)
        }
        let values: [String: Any] = ["id": id, "position": position, "history": ConsolePages.link("users", ["id": String(id)])]
        return pages.page("erased", title: "User \(id) erased", values, session: context.session)
    }

    func replay(_ request: Request, context: ConsoleContext<Context>) async throws -> Response {
        let status = await replays.status
        let progress = status.progress
        let values: [String: Any?] = [
            "state": status.state.rawValue, "running": status.state == .running, "finished": status.state == .finished,
            "failed": status.state == .failed, "error": status.error, "rebuilding": status.projections.isEmpty ? nil : status.projections.joined(separator: ", "),
            "position": progress?.position ?? 0, "head": max(progress?.headPosition ?? 0, 1),
            "percent": progress.map { $0.headPosition == 0 ? 100 : Int(100 * Double($0.position) / Double($0.headPosition)) } ?? 0,
            "eta": progress?.remaining.map { Int($0.components.seconds) }, "rate": progress?.eventsPerSecond,
            "startedAt": status.startedAt?.formatted(.iso8601), "finishedAt": status.finishedAt?.formatted(.iso8601),
            "projections": replays.projections,
        ]
        return pages.page(
            "replay", title: "Replay", values.compactMapValues { $0 }, session: context.session, refresh: status.state == .running ? 1 : nil
        )
    }

    func startReplay(_ request: Request, context: ConsoleContext<Context>) async throws -> Response {
        let names = context.form.all("projection")
        do {
            _ = try await replays.start(names.isEmpty ? nil : names)
        } catch ReplayCoordinator.Refusal.alreadyRunning {
            return pages.problem(.conflict, "A replay is already running: follow it on the replay page.", session: context.session)
        } catch let error as RebuildError {
            return pages.problem(.badRequest, error.description, session: context.session)
        }
        return Response.redirect(to: "\(ConsoleSessions.path)/replay", type: .normal)
    }

    func backup(_ request: Request, context: ConsoleContext<Context>) async throws -> Response {
        pages.page("backup", title: "Backup", backupValues(result: nil), session: context.session)
    }

    /// Into `backups/<time>` in the data directory (`<time>-2`, … when one was taken that second):
    /// copy it off the machine from there.
    func startBackup(_ request: Request, context: ConsoleContext<Context>) async throws -> Response {
        guard !audit.log.isShared else { return pages.problem(.conflict, "A shared log is backed up with PostgreSQL's own tools.", session: context.session) }
        let name = Date().formatted(.iso8601).replacingOccurrences(of: ":", with: "")
        let taken = Set((try? FileManager.default.contentsOfDirectory(atPath: backups.path)) ?? [])
        let unique = (1...).lazy.map { $0 == 1 ? name : "\(name)-\($0)" }.first { !taken.contains($0) } ?? name
        let destination = backups.appendingPathComponent(unique)
        let backUp = backUp
        let position: UInt64
        do {
            position = try await BlockingWork.run { try backUp(destination) }
        } catch Backup.Failure.destinationNotEmpty {
            return pages.problem(.conflict, "Another backup is being taken into \(destination.path): follow it on the backup page.", session: context.session)
        }
        return pages.page("backup", title: "Backup", backupValues(result: ["position": position, "path": destination.path]), session: context.session)
    }

    private var backups: URL { directory.backups }

    private func backupValues(result: [String: Any]?) -> [String: Any] {
        let made = (try? FileManager.default.contentsOfDirectory(atPath: backups.path))?.sorted(by: >) ?? []
        let values: [String: Any?] = [
            "shared": audit.log.isShared, "location": audit.log.location, "directory": backups.path, "result": result,
            "backups": made, "hasBackups": !made.isEmpty,
        ]
        return values.compactMapValues { $0 }
    }
}
