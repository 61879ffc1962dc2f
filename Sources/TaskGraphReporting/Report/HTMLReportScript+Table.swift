extension HTMLReportScript {
    /// The table of operations: sortable by any column (click its header), filtered by text (id,
    /// type or reason; `=id` for one exact id, a template name for its instances) and outcome.
    /// Rows are positioned absolutely inside a scrolling box and only those in view exist in
    /// the DOM, so 100,000 operations scroll as smoothly as ten. Failures come first until the
    /// table is sorted otherwise.
    static let table = #"""
        class OpsTable{
          constructor(){
            this.columns=[['id','operation',i=>ops.id[i]],['type','type',i=>ops.type[i]],
              ['outcome','outcome',i=>kinds[ops.outcome[i]].label],['wait','queue wait',wait,seconds],
              ['run','run time',runTime,seconds],['attempts','tries',i=>ops.attempts[i]],
              ['cpu','CPU time',i=>ops.cpu[i],seconds],['rss','peak memory',i=>ops.rss[i],bytes],
              ['read','read',i=>ops.read[i],bytes],['written','written',i=>ops.written[i],bytes],
              ['reason','failure or cache reason',i=>ops.reason[i]]];
            this.head=document.getElementById('table-head');this.view=document.getElementById('table-view');
            this.body=document.getElementById('table-rows');this.text=document.getElementById('filter');
            this.outcome=document.getElementById('outcome-filter');this.rowHeight=24;this.sort=null;
            this.head.innerHTML=this.columns.map((c,k)=>`<span data-column="${k}">${c[1]}</span>`).join('');
            this.head.querySelectorAll('span').forEach(s=>s.addEventListener('click',()=>{
              const k=Number(s.dataset.column);this.sort={column:k,\#
        up:this.sort&&this.sort.column===k?!this.sort.up:true};this.apply();}));
            this.text.addEventListener('input',()=>this.apply());this.outcome.addEventListener('change',\#
        ()=>this.apply());
            this.view.addEventListener('scroll',()=>this.draw());}
          filterBy(text){this.text.value=text;this.apply();}
          apply(){
            const text=this.text.value.trim().toLowerCase(),outcome=this.outcome.value;const rows=[];
            const exact=text.startsWith('=')?text.slice(1):null;
            for(let i=0;i<count;i++){
              if(outcome&&kinds[ops.outcome[i]].name!==outcome)continue;
              if(exact!==null){if(ops.id[i].toLowerCase()!==exact)continue;}
              else if(text&&!(ops.id[i].toLowerCase().includes(text)||ops.type[i].toLowerCase().includes(text)||
                ops.reason[i].toLowerCase().includes(text)))continue;
              rows.push(i);}
            if(this.sort){const get=this.columns[this.sort.column][2],dir=this.sort.up?1:-1;
              rows.sort((a,b)=>{const x=get(a),y=get(b);if(x==null||x==='')return y==null||y===''?a-b:1;
                if(y==null||y==='')return -1;return (x<y?-1:x>y?1:a-b)*dir;});}
            else{rows.sort((a,b)=>(kinds[ops.outcome[b]].failure-kinds[ops.outcome[a]].failure)||a-b);}
            this.head.querySelectorAll('span').forEach((s,k)=>{const on=this.sort&&this.sort.column===k;
              s.classList.toggle('sorted',!!on);s.dataset.dir=on?(this.sort.up?' ▲':' ▼'):'';});
            this.rows=rows;this.body.style.height=(rows.length*this.rowHeight)+'px';
            document.getElementById('row-count').textContent=rows.length+' of '+count+' operations';
            this.view.scrollTop=0;this.draw();}
          draw(){
            const first=Math.floor(this.view.scrollTop/this.rowHeight);
            const last=Math.min(this.rows.length,first+Math.ceil(this.view.clientHeight/this.rowHeight)+2);const\#
         parts=[];
            for(let r=first;r<last;r++){const i=this.rows[r],k=kinds[ops.outcome[i]];
              parts.push(`<div class="row" data-id="${escapeHTML(ops.id[i])}" style="top:${r*this.rowHeight}px">`+
                this.columns.map((c,n)=>{const v=c[2](i),shown=v==null?'':c[3]?c[3](v):String(v);
                  if(n===2)return `<span><span class="badge" style="background:${k.colour}">${escapeHTML(shown)}\#
        </span></span>`;
                  return `<span class="${c[3]||n===5?'num':''}" title="${escapeHTML(shown)}">${escapeHTML(shown)}\#
        </span>`;}).join('')+'</div>');}
            this.body.innerHTML=parts.join('');}
        }

        """#
}
