/// The console's one stylesheet and its icon, served by the binary.
enum ConsoleStyle {
    static let css = """
        :root { color-scheme: light dark; --accent: #2f6fde; --bad: #c62828; --ok: #2e7d32; --warn: #b26a00; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.5 system-ui, sans-serif; }
        header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .75rem 1rem; border-bottom: 1px solid #8884; }
        .brand { font-weight: 600; text-decoration: none; color: inherit; }
        nav { display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: center; }
        main { padding: 1rem; max-width: 72rem; }
        h1 { font-size: 1.5rem; margin: 0 0 1rem; }
        h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
        a { color: var(--accent); }
        a:focus, button:focus, input:focus { outline: 3px solid var(--accent); outline-offset: 2px; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
        dd { margin: 0; overflow-wrap: anywhere; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #8883; vertical-align: top; }
        td { overflow-wrap: anywhere; }
        pre { padding: .75rem; background: #8881; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
        form.stack { display: grid; gap: .5rem; max-width: 28rem; }
        form.filters { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin-bottom: 1rem; }
        form.inline { display: inline; }
        fieldset { display: grid; gap: .25rem; }
        label.check { display: flex; gap: .5rem; align-items: center; }
        label.check input { min-height: auto; }
        input, button { font: inherit; padding: .4rem .6rem; min-height: 2.5rem; }
        button { cursor: pointer; }
        .danger { background: var(--bad); color: #fff; border: 0; }
        .danger-zone { border: 2px solid var(--bad); padding: 0 1rem 1rem; margin-top: 2rem; }
        .alert { color: var(--bad); font-weight: 600; }
        .ok { color: var(--ok); }
        .bad, .state-failing { color: var(--bad); font-weight: 600; }
        .state-behind { color: var(--warn); }
        .status-ok { color: var(--ok); }
        .status-failing, .status-degraded { color: var(--bad); font-weight: 600; }
        .status-catching_up { color: var(--warn); }
        .hint { font-size: .9rem; opacity: .8; }
        progress { width: min(100%, 24rem); height: 1.25rem; }
        .steps { display: flex; flex-wrap: wrap; gap: .5rem 1rem; margin: .5rem 0; }
        @media (max-width: 40rem) {
          dl { grid-template-columns: 1fr; }
          dt { font-weight: 600; }
          main { padding: .75rem; }
          table.events thead { position: absolute; left: -9999px; }
          table.events tr { display: block; padding: .5rem 0; border-bottom: 1px solid #8883; }
          table.events td { display: grid; grid-template-columns: 6rem 1fr; border: 0; padding: .1rem 0; }
          table.events td::before { content: attr(data-label); font-weight: 600; }
        }
        """

    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2f6fde"/><path d="M4 4h8M4 8h8M4 12h5" stroke="#fff" stroke-width="2"/></svg>
        """
}
