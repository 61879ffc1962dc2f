/// The report page's script (inline: the page fetches nothing), in parts: the error catcher that
/// runs first, shared helpers, the timeline, the table, and the start-up that wires them.
///
/// The page marks itself for tests and tools: `<body data-ready="1">` once everything is drawn,
/// and `data-errors` counts uncaught errors and `console.error` calls (listed in
/// `<pre id="report-errors">`); `data-load-ms` is the time from navigation to drawn (`performance.now()`).
enum HTMLReportScript {
    /// Runs first, in `<head>`: counts uncaught errors and `console.error` calls into the DOM.
    static let errorCatcher = #"""
        (function(){var errors=[];function note(text){errors.push(String(text));
        var body=document.body;if(!body)return;body.dataset.errors=String(errors.length);
        var list=document.getElementById('report-errors');if(!list){list=document.createElement('pre');
        list.id='report-errors';body.appendChild(list);}list.textContent=errors.join('\n');}
        window.__reportErrors=errors;window.__noteReportError=note;
        window.addEventListener('error',function(e){note(e.message+' at '+e.lineno+':'+e.colno);});
        window.addEventListener('unhandledrejection',function(e){note('unhandled rejection: '+e.reason);});
        var original=console.error;console.error=function(){note(Array.prototype.join.call(arguments,' '));
        return original.apply(console,arguments);};})();
        """#

    /// The whole script of the page body.
    static var body: String {
        "(function(){'use strict';\n" + helpers + timeline + table + start + "})();"
    }

    /// Data and formatting shared by the timeline and the table.
    static let helpers = #"""
        const data=JSON.parse(document.getElementById('report-data').textContent);
        const ops=data.ops,count=ops.id.length,kinds=data.kinds;
        function seconds(s){if(s==null)return '';if(s<1)return (s*1000).toFixed(s<0.01?2:0)+' ms';
          if(s<60)return s.toFixed(2)+' s';const m=Math.floor(s/60);return m+'m '+Math.round(s-m*60)+'s';}
        function bytes(b){if(b==null)return '';const units=['B','KiB','MiB','GiB','TiB'];let i=0;
          while(b>=1024&&i<units.length-1){b/=1024;i++;}return (i?b.toFixed(1):String(b))+' '+units[i];}
        function wait(i){const q=ops.queued[i],s=ops.start[i];return q==null||s==null?null:Math.max(s-q,0);}
        function runTime(i){const s=ops.start[i],e=ops.end[i];return s==null||e==null?null:Math.max(e-s,0);}
        function escapeHTML(t){return String(t).replace(/[&<>"']/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;\#
        ',"'":'&#39;'}[c]));}
        function describe(i){const k=kinds[ops.outcome[i]];const lines=[ops.id[i],ops.type[i]+' · '+k.label];
          if(ops.start[i]!=null)lines.push('start '+seconds(ops.start[i])+', ran '+seconds(runTime(i))+', waited\#
         '+seconds(wait(i)));
          if(ops.attempts[i]>1)lines.push(ops.attempts[i]+' attempts');
          if(ops.cpu[i]!=null)lines.push('CPU '+seconds(ops.cpu[i])+(ops.rss[i]!=null?', peak '+bytes(ops.rss[i]):''));
          if(ops.reason[i])lines.push(ops.reason[i].length>160?ops.reason[i].slice(0,160)+'…':ops.reason[i]);
          return lines.join('\n');}

        """#

    /// Start-up: draws everything, wires the graph to the table, marks the page ready.
    static let start = #"""
        const timeline=new Timeline(),opsTable=new OpsTable();
        timeline.draw();opsTable.apply();
        const expanded=document.getElementById('graph-expanded');
        function showOperation(id){opsTable.filterBy('='+id);document.getElementById('operations').scrollIntoView();}
        function expand(prefix){const members=[];for(let i=0;i<count;\#
        i++)if(ops.id[i].startsWith(prefix))members.push(i);
          members.sort((a,b)=>(kinds[ops.outcome[b]].failure-kinds[ops.outcome[a]].failure)||a-b);const\#
         shown=members.slice(0,200);
          expanded.innerHTML=`<p class="hint">${escapeHTML(prefix)}*]: ${members.length} operations`+
            (members.length>shown.length?`, the first ${shown.length} shown (failures first); the table below lists\#
         them all`:'')+'</p>'+
            shown.map(i=>`<button class="op-chip" data-id="${escapeHTML(ops.id[i])}" style="background:${\#
        kinds[ops.outcome[i]].colour}" title="${escapeHTML(describe(i))}">${escapeHTML(ops.id[i])}</button>`).join('');
          expanded.querySelectorAll('.op-chip').forEach(chip=>chip.addEventListener('click',\#
        ()=>showOperation(chip.dataset.id)));
          opsTable.filterBy(prefix);}
        document.querySelectorAll('#graph-svg .node').forEach(node=>node.addEventListener('click',()=>{const\#
         filter=node.dataset.filter;
          if(expanded&&!filter.startsWith('='))expand(filter);else showOperation(filter.replace(/^=/,''));}));
        window.addEventListener('resize',()=>{timeline.draw();opsTable.draw();});
        document.body.dataset.loadMs=String(Math.round(performance.now()));document.body.dataset.ready='1';

        """#
}
