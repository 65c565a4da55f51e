import Logging
import PostgresNIO

/// The log's tables and the shared key store's, created and migrated by the product itself, step by
/// step like its read models. `event_log_meta` says which product's log this is and at which schema
/// version.
enum PostgresLogSchema {
    /// Step N brings a database from version N to N + 1. Append steps; never edit one that shipped.
    static let steps: [[PostgresQuery]] = [
        [
            """
            CREATE TABLE event_log (
                position bigint PRIMARY KEY,
                event_id uuid NOT NULL UNIQUE,
                stream_id text NOT NULL,
                stream_version bigint NOT NULL,
                type text NOT NULL,
                schema_version integer NOT NULL,
                recorded_at bigint NOT NULL,
                actor_user_id bigint,
                user_ids bigint[] NOT NULL,
                payload bytea NOT NULL,
                UNIQUE (stream_id, stream_version)
            )
            """,
        ],
        [
            """
            CREATE TABLE data_key (
                user_id bigint PRIMARY KEY,
                wrapped bytea,
                destroyed_at timestamptz,
                log_position bigint,
                sequence bigint NOT NULL UNIQUE,
                CHECK ((wrapped IS NULL) = (destroyed_at IS NOT NULL))
            )
            """,
            "CREATE TABLE key_store_check (id integer PRIMARY KEY CHECK (id = 1), sealed bytea NOT NULL)",
        ],
        [
            // One round trip where an append took four: the lock, then what the append rules need, each
            // read by a statement of its own (a VOLATILE function's statements each take a fresh
            // snapshot), so every commit made before the lock was granted is seen. Planned at every
            // call: a plan cached while the log was small scans the whole table once it is not.
            """
            CREATE FUNCTION event_log_lock_for_append(
                lock bigint, ids uuid[], streams text[], OUT head bigint, OUT versions bigint[], OUT known bigint[]
            ) LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_custom_plan AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock(lock);
                SELECT coalesce(max(e.position), 0) INTO head FROM event_log e;
                SELECT coalesce(array_agg(coalesce((SELECT max(e.stream_version) FROM event_log e WHERE e.stream_id = s.id), 0) ORDER BY s.n), '{}')
                    INTO versions FROM unnest(streams) WITH ORDINALITY AS s(id, n);
                SELECT coalesce(array_agg(e.position), '{}') INTO known FROM event_log e WHERE e.event_id = ANY(ids);
            END
            $$
            """,
        ],
        ["CREATE TABLE stream_number (prefix text PRIMARY KEY, highest bigint NOT NULL)"],
        ["CREATE TABLE shared_file (name text PRIMARY KEY, contents bytea NOT NULL)"],
        [
            // A commit in one statement, run outside a transaction block: the lock, the head, the
            // check that the log holds what the node decided on (none of `ids`, each of `streams` at
            // its version in `versions`), and the events at their offsets from the head; the implicit
            // transaction's commit then releases the lock. `appended` is false, and nothing written,
            // when the check fails. Called with nothing to check inside a transaction that read under
            // the same lock, it is that transaction's insert. Its plans are kept across calls (planning
            // each call cost more than the rest of a small commit), so they must not depend on the
            // table's size when first made: every read here is an index lookup, whatever the table holds.
            """
            CREATE FUNCTION event_log_append_as_predicted(
                lock bigint, channel text, streams text[], versions bigint[], ids uuid[],
                offsets bigint[], event_ids uuid[], stream_ids text[], stream_versions bigint[], types text[],
                schema_versions integer[], recorded bigint[], actors bigint[], users text[], payloads bytea[],
                OUT head bigint, OUT appended boolean
            ) LANGUAGE plpgsql VOLATILE SET enable_seqscan = off AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock(lock);
                SELECT coalesce(max(e.position), 0) INTO head FROM event_log e;
                appended := NOT EXISTS (SELECT 1 FROM event_log e WHERE e.event_id = ANY(ids))
                    AND NOT EXISTS (
                        SELECT 1 FROM unnest(streams, versions) AS x(id, version)
                        WHERE coalesce((SELECT max(e.stream_version) FROM event_log e WHERE e.stream_id = x.id), 0) <> x.version
                    );
                IF appended AND cardinality(offsets) > 0 THEN
                    INSERT INTO event_log (position, event_id, stream_id, stream_version, type, schema_version, recorded_at, actor_user_id, user_ids, payload)
                        SELECT head + x.o, x.i, x.s, x.v, x.t, x.sv, x.r, x.a, x.u::bigint[], x.d
                        FROM unnest(offsets, event_ids, stream_ids, stream_versions, types, schema_versions, recorded, actors, users, payloads)
                            AS x(o, i, s, v, t, sv, r, a, u, d);
                    PERFORM pg_notify(channel, (head + cardinality(offsets))::text);
                END IF;
            END
            $$
            """,
        ],
        [
            // Every key change as recorded, kept when a later one replaces the user's row: a node
            // compares the last change it copied with this, so one lost by a failover is found.
            // A digest of the wrapped key, never the key: an erasure leaves nothing to unwrap here.
            "CREATE TABLE data_key_change (sequence bigint PRIMARY KEY, user_id bigint NOT NULL, digest bytea)",
            "INSERT INTO data_key_change (sequence, user_id, digest) SELECT sequence, user_id, sha256(wrapped) FROM data_key",
            """
            CREATE FUNCTION data_key_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO data_key_change (sequence, user_id, digest) VALUES (NEW.sequence, NEW.user_id, sha256(NEW.wrapped));
                RETURN NULL;
            END
            $$
            """,
            "CREATE TRIGGER data_key_recorded AFTER INSERT OR UPDATE ON data_key FOR EACH ROW EXECUTE FUNCTION data_key_recorded()",
        ],
        [
            // Attempts every node counts (logins: each counted before its password is checked, taken back
            // if it was right, `checking` until then), each until it expires; not the truth, so not in the
            // log. Keys are digests. Counting locks each key, in one order, so nodes counting together
            // never pass a limit: advisory locks of two integers, a space apart from the log's one-bigint
            // locks. A key full of attempts still being checked is refused for a second (`failed` false).
            "CREATE TABLE attempt (key text NOT NULL, id uuid NOT NULL, expires_at timestamptz NOT NULL, checking boolean NOT NULL, PRIMARY KEY (key, id))",
            "CREATE INDEX attempt_expiry ON attempt (expires_at)",
            """
            CREATE FUNCTION attempt_counted(
                keys text[], limits integer[], attempt_id uuid, lasting double precision, OUT wait double precision, OUT failed boolean
            ) LANGUAGE plpgsql VOLATILE AS $$
            DECLARE
                key_lock integer;
            BEGIN
                FOR key_lock IN SELECT DISTINCT hashtext(k) FROM unnest(keys) AS k ORDER BY 1 LOOP
                    PERFORM pg_advisory_xact_lock(1, key_lock);
                END LOOP;
                DELETE FROM attempt WHERE ctid = ANY(ARRAY(SELECT a.ctid FROM attempt a WHERE a.expires_at <= clock_timestamp() LIMIT 100));
                SELECT max(CASE WHEN x.settled >= x.most THEN extract(epoch FROM x.oldest - clock_timestamp()) ELSE 1 END), bool_or(x.settled >= x.most)
                INTO wait, failed FROM (
                    SELECT min(a.expires_at) FILTER (WHERE NOT a.checking) AS oldest, count(a.id) AS counted,
                        count(a.id) FILTER (WHERE NOT a.checking) AS settled, k.most
                    FROM (SELECT DISTINCT ON (u.key) u.key, u.most FROM unnest(keys, limits) AS u(key, most) ORDER BY u.key, u.most) k
                    LEFT JOIN attempt a ON a.key = k.key AND a.expires_at > clock_timestamp()
                    GROUP BY k.key, k.most
                ) x WHERE x.counted >= x.most;
                IF wait IS NULL THEN
                    INSERT INTO attempt (key, id, expires_at, checking)
                        SELECT DISTINCT k, attempt_id, clock_timestamp() + make_interval(secs => lasting), true FROM unnest(keys) AS k;
                END IF;
            END
            $$
            """,
        ],
        [
            // `event_log_append_as_predicted` on top of the node's copy: nothing is written, and `parted`
            // is true, unless the log holds the copy's last event (`copied_id` at `copied_position`,
            // 0 for an empty copy). A standby promoted without every commit may hold other events up
            // to exactly there; a commit on top would follow the copy unread and leave it parted for good.
            // The lock taken here is taken again by the append (a transaction's advisory locks stack).
            // A standby (reached through a single host name around a switchover) may be behind the
            // copy without having lost anything: it refuses as read-only, as the insert would.
            """
            CREATE FUNCTION event_log_append_on_copy(
                lock bigint, channel text, copied_position bigint, copied_id uuid, streams text[], versions bigint[], ids uuid[],
                offsets bigint[], event_ids uuid[], stream_ids text[], stream_versions bigint[], types text[],
                schema_versions integer[], recorded bigint[], actors bigint[], users text[], payloads bytea[],
                OUT head bigint, OUT appended boolean, OUT parted boolean
            ) LANGUAGE plpgsql VOLATILE SET enable_seqscan = off AS $$
            BEGIN
                IF pg_is_in_recovery() THEN
                    RAISE EXCEPTION 'a standby takes no writes' USING ERRCODE = 'read_only_sql_transaction';
                END IF;
                PERFORM pg_advisory_xact_lock(lock);
                parted := copied_position > 0
                    AND NOT EXISTS (SELECT 1 FROM event_log e WHERE e.position = copied_position AND e.event_id = copied_id);
                IF parted THEN
                    SELECT coalesce(max(e.position), 0), false INTO head, appended FROM event_log e;
                ELSE
                    SELECT a.head, a.appended INTO head, appended FROM event_log_append_as_predicted(
                        lock, channel, streams, versions, ids, offsets, event_ids, stream_ids, stream_versions, types,
                        schema_versions, recorded, actors, users, payloads
                    ) a;
                END IF;
            END
            $$
            """,
        ],
    ]

    /// Migrates under a lock, so nodes starting together do it once; refuses another product's log.
    static func prepare(_ client: PostgresClient, product: String, location: String, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSharedLog.migrationLock))", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS event_log_meta (name text PRIMARY KEY, value text NOT NULL)", logger: logger)
            var meta: [String: String] = [:]
            for try await (name, value) in try await connection.query("SELECT name, value FROM event_log_meta", logger: logger).decode((String, String).self) {
                meta[name] = value
            }
            if let owner = meta["product"], owner != product { throw PostgresLogError.heldByAnotherProduct(location: location, product: owner) }
            let version = meta["schema_version"].flatMap(Int.init) ?? 0
            guard version <= steps.count else { throw PostgresLogError.writtenByANewerVersion(location: location, schemaVersion: version) }
            for step in steps[version...] {
                for statement in step { try await connection.query(statement, logger: logger) }
            }
            try await connection.query(
                """
                INSERT INTO event_log_meta (name, value) VALUES ('product', \(product)), ('schema_version', \(String(steps.count)))
                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                """,
                logger: logger
            )
        }
    }
}
