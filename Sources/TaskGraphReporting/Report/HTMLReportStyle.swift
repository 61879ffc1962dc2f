/// The report page's style sheet (inline: the page fetches nothing).
enum HTMLReportStyle {
    static let css = """
        :root{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:#212529;background:#fff}
        body{margin:0 auto;padding:16px 24px;max-width:1400px}
        h1{margin:0 0 8px;font-size:24px}h2{font-size:18px;margin:24px 0 8px;border-bottom:1px solid #dee2e6}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0}dt{color:#6c757d}dd{margin:0;\
        word-break:break-all}
        .chip{display:inline-block;padding:1px 8px;border-radius:10px;margin:6px 4px 0 0;border:1px solid #adb5bd}
        .hint{color:#6c757d;margin:4px 0 8px}
        .failure{border-left:4px solid #e03131;background:#fff5f5;padding:4px 12px;margin:8px 0}
        .failure h3{margin:4px 0;font-size:15px}.failure p{margin:0;color:#6c757d}
        .failure pre{white-space:pre-wrap;word-break:break-word;background:#fff;padding:6px;border:1px solid #ffc9c9;\
        max-height:240px;overflow:auto}
        .preview-row{display:flex;gap:12px;flex-wrap:wrap;margin:8px 0}
        figure{margin:0;text-align:center}figure img{display:block;max-height:160px;border:1px solid #dee2e6}
        figcaption{font-size:12px;color:#6c757d}
        #timeline-view{position:relative;border:1px solid #dee2e6;overflow:hidden;cursor:grab;user-select:none}
        #timeline-svg{display:block;width:100%}#timeline-svg text{font-size:11px;fill:#495057}
        #timeline-svg .grid{stroke:#f1f3f5}#timeline-svg .bar{stroke:#495057;stroke-width:.5}
        #tooltip{position:fixed;pointer-events:none;background:#212529;color:#fff;padding:6px 8px;border-radius:4px;\
        font-size:12px;white-space:pre;z-index:10}
        .scroll{overflow:auto;max-height:640px;border:1px solid #dee2e6}
        #graph-svg .edges path{fill:none;stroke:#adb5bd;stroke-width:1.2}
        #graph-svg .edges path.critical{stroke:#e8590c;stroke-width:3}
        #graph-svg .node{cursor:pointer}#graph-svg .node rect{stroke:#495057}
        #graph-svg .node.critical rect{stroke:#e8590c;stroke-width:3}
        #graph-svg text{font-size:12px;fill:#212529}#graph-svg text.detail{font-size:11px;fill:#495057}
        #table{border:1px solid #dee2e6;font-size:13px}
        #table-head,.row{display:grid;grid-template-columns:minmax(160px,2fr) 100px 90px 80px 80px 60px 80px 90px 80px\
         80px minmax(160px,3fr);align-items:center}
        #table-head{background:#f8f9fa;font-weight:600;border-bottom:1px solid #dee2e6}
        #table-head span{padding:4px 6px;cursor:pointer}#table-head span.sorted::after{content:attr(data-dir)}
        #table-view{max-height:480px;overflow:auto;position:relative}#table-rows{position:relative}
        .row{position:absolute;left:0;right:0;height:24px;border-bottom:1px solid #f1f3f5}
        .row span{padding:0 6px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        .op-chip{border:1px solid #adb5bd;border-radius:4px;margin:2px;font-size:12px;cursor:pointer}
        .row .num{text-align:right}.badge{border-radius:8px;padding:0 6px}
        """
}
