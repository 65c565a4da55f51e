import ReadModels
import NuvieCommands
import Foundation
import Hummingbird
import NuvieProjections

/// Operator endpoints, behind `X-Admin-Token` (from configuration). A user's bearer token never opens them.
/// `GET /admin/users/{user_id}/audit?from=&to=&limit=&offset=`: every event the user caused or that
/// concerns them; `GET /admin/events?from=&limit=`: the log itself, in order; `POST /admin/replay`
/// `{"projections": [...]}` (optional: all when absent) rebuilds read models while serving, and
/// `GET /admin/replay` shows how it goes.
struct AdminController: Sendable {
    let audit: AuditTrail
    let replays: ReplayCoordinator

    static let maximumEventsPerPage = 1000

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .get("users/:user_id/audit", use: userAudit)
            .get("events", use: events)
            .post("replay", use: startReplay)
            .get("replay", use: replayStatus)
    }

    func userAudit(_ request: Request, context: AppRequestContext) async throws -> ListResponse<AuditEntryDTO> {
        let userId = try context.parameters.id("user_id")
        let page = try Pagination(request)
        let entries = try audit.user(userId, from: try time(request, "from"), to: try time(request, "to"))
        let items = entries.dropFirst(page.offset).prefix(page.limit).map(AuditEntryDTO.init)
        return ListResponse(key: "events", items: Array(items), totalCount: entries.count, page: page)
    }

    func events(_ request: Request, context: AppRequestContext) async throws -> LogPageResponse {
        let from = try Pagination.integer(request, "from", default: 1, range: 1...Int(Int64.max))
        let limit = try Pagination.integer(request, "limit", default: 100, range: 1...Self.maximumEventsPerPage)
        let page = try audit.events(from: UInt64(from), limit: limit)
        let next = page.last.map { $0.position + 1 }.flatMap { $0 <= audit.headPosition ? $0 : nil }
        return LogPageResponse(events: page.map(AuditEntryDTO.init), nextFrom: next, headPosition: audit.headPosition)
    }

    func startReplay(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<ReplayStatusDTO> {
        let names = try await JSONBody.decodeIfPresent(request, context: context, fields: ["projections"])?.stringList("projections", maxCount: 32, maxLength: 64)
        do {
            return EditedResponse(status: .accepted, response: ReplayStatusDTO(try await replays.start(names)))
        } catch ReplayCoordinator.Refusal.alreadyRunning {
            throw APIError.conflict("A replay is already running; follow it at GET /admin/replay")
        } catch let error as RebuildError {
            throw APIError.validation(error.description, field: "projections")
        }
    }

    func replayStatus(_ request: Request, context: AppRequestContext) async throws -> ReplayStatusDTO {
        return ReplayStatusDTO(await replays.status)
    }

    private func time(_ request: Request, _ name: String) throws -> Date? {
        guard let raw = request.uri.queryParameters[name[...]] else { return nil }
        guard let date = OperatorTime.parse(String(raw)) else {
            throw APIError.validation("\(name) must be a time like 2024-01-15T10:30:00Z or a date like 2024-01-15", field: name)
        }
        return date
    }
}
