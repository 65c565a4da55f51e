/// The console's pages, as Mustache templates kept in the binary (no files to ship beside it).
/// Each page fills the layout's `content`; `{{…}}` escapes HTML, and no template uses `{{{…}}}`.
enum ConsoleTemplates {
    static let all: [String: String] = [
        "layout": layout, "sign-in": signIn, "overview": overview, "events": events, "event": event, "stream": stream, "user": user,
        "erased": erased, "replay": replay, "backup": backup, "problem": problem,
    ]

    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        {{#refresh}}<meta http-equiv="refresh" content="{{.}}">{{/refresh}}
        <title>{{title}} · {{product}} console</title>
        <link rel="stylesheet" href="/admin/console/console.css">
        <link rel="icon" href="/admin/console/icon.svg" type="image/svg+xml">
        </head>
        <body>
        <header>
        <a class="brand" href="/admin/console">{{product}} · operator console</a>
        {{#session}}
        <nav aria-label="Console">
        <a href="/admin/console">Overview</a>
        <a href="/admin/console/events">Events</a>
        <a href="/admin/console/users">Users</a>
        <a href="/admin/console/replay">Replay</a>
        <a href="/admin/console/backup">Backup</a>
        <form method="post" action="/admin/console/sign-out" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" id="sign-out">Sign out</button></form>
        </nav>
        {{/session}}
        </header>
        <main>
        <h1>{{title}}</h1>
        {{$content}}{{/content}}
        </main>
        </body>
        </html>
        """

    static let signIn = """
        {{<layout}}{{$content}}
        {{#message}}<p class="alert" role="alert">{{.}}</p>{{/message}}
        <form method="post" action="/admin/console/sign-in" class="stack">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="text" name="operator" value="operator" autocomplete="username" hidden>
        <label for="token">Operator token</label>
        <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
        <p class="hint">The <code>{{tokenSetting}}</code> this server was started with; in demo mode, the <code>admin-token</code> file in its data directory.</p>
        <button type="submit" id="sign-in">Sign in</button>
        </form>
        {{/content}}{{/layout}}
        """

    static let overview = """
        {{<layout}}{{$content}}
        <p class="status status-{{status}}" role="status" id="status">Status: <strong>{{status}}</strong> · as of {{refreshedAt}}, refreshed every 5 s</p>
        <section aria-labelledby="log-heading"><h2 id="log-heading">Log</h2>
        <dl>
        <dt>Head position</dt><dd id="log-head">{{logHead}}</dd>
        <dt>Backend</dt><dd>{{backend}}{{#location}} · {{.}}{{/location}}</dd>
        {{#shared}}<dt>Behind the shared head</dt><dd>{{behind}}</dd>{{/shared}}
        {{#logFailure}}<dt>Failure</dt><dd class="bad">{{.}}</dd>{{/logFailure}}
        <dt>Read-model revision</dt><dd>{{revision}}</dd>
        <dt>Free disk space</dt><dd>{{diskFree}}</dd>
        </dl>
        {{#hasStorageFull}}<p class="alert" role="alert">A store refuses writes for want of space:</p><ul>{{#storageFull}}<li>{{store}} since {{since}}: {{error}}</li>{{/storageFull}}</ul>{{/hasStorageFull}}
        </section>
        <section aria-labelledby="projections-heading"><h2 id="projections-heading">Projections</h2>
        <div class="scroll"><table id="projections">
        <thead><tr><th scope="col">Projection</th><th scope="col">Version</th><th scope="col">Position</th><th scope="col">Lag</th><th scope="col">State</th></tr></thead>
        <tbody>
        {{#projections}}<tr class="state-{{state}}"><td>{{name}}</td><td>{{version}}</td><td>{{position}}</td><td class="lag">{{lag}}</td><td>{{state}}{{#failure}}: stopped at position {{failedPosition}}: {{.}}{{/failure}}</td></tr>
        {{/projections}}
        </tbody></table></div>
        </section>
        {{#sections}}<section><h2>{{name}}</h2><pre>{{json}}</pre></section>
        {{/sections}}
        <section aria-labelledby="errors-heading"><h2 id="errors-heading">Requests answered with an error since start</h2>
        {{^hasErrors}}<p>None.</p>{{/hasErrors}}
        {{#hasErrors}}<div class="scroll"><table><thead><tr><th scope="col">Route</th><th scope="col">Status</th><th scope="col">Count</th></tr></thead><tbody>
        {{#errors}}<tr><td>{{method}} {{route}}</td><td>{{status}}</td><td>{{count}}</td></tr>{{/errors}}
        </tbody></table></div>{{/hasErrors}}
        </section>
        {{/content}}{{/layout}}
        """

    static let eventRows = """
        <div class="scroll"><table class="events">
        <thead><tr><th scope="col">Position</th><th scope="col">Type</th><th scope="col">Stream</th><th scope="col">Recorded</th><th scope="col">User</th></tr></thead>
        <tbody>
        {{#events}}<tr><td data-label="Position"><a href="/admin/console/events/{{position}}">{{position}}</a></td><td data-label="Type">{{type}} v{{schemaVersion}}</td><td data-label="Stream"><a href="{{streamLink}}">{{stream}}</a></td><td data-label="Recorded">{{recordedAt}}</td><td data-label="User">{{#actor}}<a href="/admin/console/users?id={{.}}">{{.}}</a>{{/actor}}{{#role}} ({{.}}){{/role}}</td></tr>
        {{/events}}
        </tbody></table></div>
        """

    static let events = """
        {{<layout}}{{$content}}
        <form method="get" action="/admin/console/events" class="filters">
        <label for="stream">Stream</label><input id="stream" name="stream" value="{{stream}}">
        <label for="type">Type</label><input id="type" name="type" value="{{type}}">
        <button type="submit">Filter</button>
        </form>
        <p id="summary">{{summary}}</p>
        \(eventRows)
        {{#older}}<p><a rel="next" href="{{.}}">Older events</a></p>{{/older}}
        {{/content}}{{/layout}}
        """

    static let event = """
        {{<layout}}{{$content}}
        <dl>
        <dt>Position</dt><dd id="position">{{position}}</dd>
        <dt>Event id</dt><dd><code>{{eventId}}</code></dd>
        <dt>Type</dt><dd id="type">{{type}} (schema version {{schemaVersion}})</dd>
        <dt>Stream</dt><dd><a id="stream-link" href="{{streamLink}}">{{stream}}</a> · <a id="as-of-link" href="{{asOfLink}}">the stream as of this event</a></dd>
        <dt>Recorded</dt><dd>{{recordedAt}}</dd>
        <dt>By user</dt><dd>{{#actor}}<a href="/admin/console/users?id={{.}}">{{.}}</a>{{/actor}}{{^actor}}nobody (the system){{/actor}}</dd>
        </dl>
        <h2>Payload</h2>
        <p class="hint">Personal fields stay sealed under their owner's key: the console never opens them, and shows them as null.</p>
        <pre id="payload">{{payload}}</pre>
        <nav class="steps" aria-label="Neighbouring events">{{#previous}}<a rel="prev" href="/admin/console/events/{{.}}">Event {{.}}</a>{{/previous}} {{#next}}<a rel="next" href="/admin/console/events/{{.}}">Event {{.}}</a>{{/next}}</nav>
        {{/content}}{{/layout}}
        """

    static let stream = """
        {{<layout}}{{$content}}
        <p>As of position <strong id="at">{{at}}</strong> ({{atTime}}, {{atType}}): {{countAt}} of the stream's {{count}} events.</p>
        <nav class="steps" aria-label="Step through the stream">
        {{#first}}<a href="{{.}}">First</a>{{/first}} {{#previous}}<a rel="prev" id="step-back" href="{{.}}">One event back</a>{{/previous}}
        {{#next}}<a rel="next" id="step-forward" href="{{.}}">One event on</a>{{/next}} {{#latest}}<a href="{{.}}">Latest</a>{{/latest}}
        </nav>
        <form method="get" action="/admin/console/stream" class="filters">
        <input type="hidden" name="id" value="{{stream}}">
        <label for="time">As of an instant</label><input id="time" name="time" value="{{time}}" placeholder="2024-01-15T10:30:00Z">
        <button type="submit">Go</button>
        </form>
        <h2>The event at {{at}}</h2>
        <pre id="payload">{{payload}}</pre>
        <h2>The stream up to then, newest first</h2>
        \(eventRows)
        {{/content}}{{/layout}}
        """

    static let user = """
        {{<layout}}{{$content}}
        <form method="get" action="/admin/console/users" class="filters">
        <label for="id">User id</label><input id="id" name="id" inputmode="numeric" value="{{userId}}" required>
        <button type="submit">Show their history</button>
        </form>
        {{#user}}
        <p id="user-summary">{{total}} events caused by or concerning user {{id}}{{#erased}} · <strong>erased</strong>: their personal fields are sealed for good{{/erased}}.</p>
        \(eventRows)
        {{#older}}<p><a rel="next" href="{{.}}">Older events</a></p>{{/older}}
        {{#canErase}}
        <section aria-labelledby="erase-heading" class="danger-zone"><h2 id="erase-heading">Erase user {{id}}</h2>
        <p>Destroys the user's key: every personal field of theirs in the log stays sealed for good, and the read models forget them. This cannot be undone.</p>
        <form method="post" action="/admin/console/users/erase" class="stack">
        <input type="hidden" name="csrf" value="{{session.csrf}}"><input type="hidden" name="id" value="{{id}}">
        <label for="confirm">Type the user id again to confirm</label><input id="confirm" name="confirm" inputmode="numeric" autocomplete="off" required>
        <button type="submit" class="danger" id="erase">Erase user {{id}}</button>
        </form>
        </section>
        {{/canErase}}
        {{/user}}
        {{/content}}{{/layout}}
        """

    static let erased = """
        {{<layout}}{{$content}}
        <p class="ok" role="status" id="erased">User {{id}} is erased; the log records it at position {{position}}. Their events stay in the log with their personal fields sealed.</p>
        <p><a href="{{history}}">Their history</a></p>
        {{/content}}{{/layout}}
        """

    static let replay = """
        {{<layout}}{{$content}}
        <p>The latest replay: <strong id="replay-state">{{state}}</strong>{{#rebuilding}} ({{.}}){{/rebuilding}}{{#startedAt}}, started {{.}}{{/startedAt}}.</p>
        {{#running}}<p><label for="progress">Progress</label> <progress id="progress" max="{{head}}" value="{{position}}">{{percent}} %</progress> position {{position}} of {{head}}{{#rate}} · {{.}} events/s{{/rate}}{{#eta}} · about {{.}} s left{{/eta}}</p>{{/running}}
        {{#finished}}<p class="ok" role="status" id="swapped">Swapped in at {{finishedAt}}: the rebuilt read models replaced the live ones in one step.</p>{{/finished}}
        {{#failed}}<p class="alert" role="alert">It failed: {{error}}</p>{{/failed}}
        <form method="post" action="/admin/console/replay" class="stack">
        <input type="hidden" name="csrf" value="{{session.csrf}}">
        <fieldset><legend>Projections to rebuild from the log (none ticked: all of them)</legend>
        {{#projections}}<label class="check"><input type="checkbox" name="projection" value="{{.}}"> {{.}}</label>
        {{/projections}}
        </fieldset>
        <button type="submit" id="start-replay">Start the replay</button>
        </form>
        {{/content}}{{/layout}}
        """

    static let backup = """
        {{<layout}}{{$content}}
        {{#shared}}<p>This node's log is PostgreSQL's ({{location}}): back it up with PostgreSQL's own tools (pg_dump, or a base backup with WAL archiving), as ops/README.md describes.</p>{{/shared}}
        {{^shared}}
        {{#result}}<p class="ok" role="status" id="backed-up">Backed up the log to position {{position}} into <code>{{path}}</code>.</p>{{/result}}
        <p>A consistent copy of the log, taken while the server runs, into a new directory under <code>{{directory}}</code>: copy it off this machine from there. The key store is backed up apart (<code>{{product}} backup-keys</code>), and read models are folded again on restore.</p>
        <form method="post" action="/admin/console/backup"><input type="hidden" name="csrf" value="{{session.csrf}}"><button type="submit" id="back-up">Back up now</button></form>
        {{#hasBackups}}<h2>Backups here</h2><ul>{{#backups}}<li><code>{{.}}</code></li>{{/backups}}</ul>{{/hasBackups}}
        {{/shared}}
        {{/content}}{{/layout}}
        """

    static let problem = """
        {{<layout}}{{$content}}
        <p class="alert" role="alert">{{message}}</p>
        <p><a href="/admin/console">Back to the overview</a></p>
        {{/content}}{{/layout}}
        """
}
