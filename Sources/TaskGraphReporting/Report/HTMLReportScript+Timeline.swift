extension HTMLReportScript {
    /// The timeline: one row per worker lane (labelled with its pool), plus a row of instants
    /// for results reused from the cache. Only what falls inside the visible window is drawn,
    /// and bars narrower than a pixel merge with their neighbours of the same colour, so the
    /// SVG holds at most a few elements per pixel column however many operations ran.
    static let timeline = #"""
        class Timeline{
          constructor(){
            this.svg=document.getElementById('timeline-svg');this.view=document.getElementById('timeline-view');
            this.tip=document.getElementById('tooltip');this.rowHeight=20;this.labelWidth=150;
            const lanes=new Map();const cached=[];let last=data.wall||0;
            for(let i=0;i<count;i++){
              if(ops.end[i]!=null)last=Math.max(last,ops.end[i]);
              if(kinds[ops.outcome[i]].name==='cached'){cached.push(i);continue;}
              if(ops.lane[i]==null||ops.start[i]==null)continue;
              const key=ops.lane[i];if(!lanes.has(key))lanes.set(key,{lane:key,pool:data.pools[ops.pool[i]],ops:[]});
              lanes.get(key).ops.push(i);}
            this.rows=[...lanes.values()].sort((a,\#
        b)=>a.pool===b.pool?a.lane-b.lane:(a.pool==='default'?-1:b.pool==='default'?1:a.pool<b.pool?-1:1))
              .map(r=>({label:r.pool+' · lane '+r.lane,ops:r.ops,instant:false}));
            if(cached.length)this.rows.push({label:'cached (did not run)',ops:cached,instant:true});
            for(const row of this.rows){
              const key=row.instant?(i=>ops.end[i]):(i=>ops.start[i]);
              row.ops.sort((a,b)=>key(a)-key(b));row.starts=Float64Array.from(row.ops,key);
              row.longest=row.instant?0:row.ops.reduce((m,i)=>Math.max(m,runTime(i)||0),0);}
            this.total=Math.max(last,1e-3);this.t0=0;this.t1=this.total;this.pending=false;
            this.view.addEventListener('wheel',e=>{e.preventDefault();const t=this.timeAt(e.clientX);
              this.zoom(Math.exp(e.deltaY*0.002),t);},{passive:false});
            this.view.addEventListener('mousedown',e=>{this.drag={x:e.clientX,t0:this.t0,t1:this.t1};});
            window.addEventListener('mouseup',()=>{this.drag=null;});
            this.view.addEventListener('mousemove',e=>this.move(e));
            this.view.addEventListener('mouseleave',()=>{this.tip.hidden=true;});
            document.querySelectorAll('[data-zoom]').forEach(b=>b.addEventListener('click',()=>{
              const z=b.dataset.zoom,mid=(this.t0+this.t1)/2;
              if(z==='fit'){this.t0=0;this.t1=this.total;this.request();}else this.zoom(z==='in'?0.5:2,mid);}));}
          plotWidth(){return Math.max(this.view.clientWidth-this.labelWidth-8,50);}
          timeAt(clientX){const r=this.view.getBoundingClientRect();
            return this.t0+(clientX-r.left-this.labelWidth)/this.plotWidth()*(this.t1-this.t0);}
          zoom(factor,around){const span=Math.min(Math.max((this.t1-this.t0)*factor,this.total*1e-6),this.total);
            let t0=around-(around-this.t0)*span/(this.t1-this.t0);t0=Math.min(Math.max(t0,0),this.total-span);
            this.t0=t0;this.t1=t0+span;this.request();}
          request(){if(this.pending)return;this.pending=true;requestAnimationFrame(()=>{this.pending=false;\#
        this.draw();});}
          move(e){
            if(this.drag){const dt=(e.clientX-this.drag.x)/this.plotWidth()*(this.drag.t1-this.drag.t0);
              const span=this.drag.t1-this.drag.t0;this.t0=Math.min(Math.max(this.drag.t0-dt,0),this.total-span);
              this.t1=this.t0+span;this.request();return;}
            const r=this.view.getBoundingClientRect();const\#
         row=this.rows[Math.floor((e.clientY-r.top-24)/this.rowHeight)];
            const hit=row?this.find(row,this.timeAt(e.clientX),3*(this.t1-this.t0)/this.plotWidth()):-1;
            if(hit<0){this.tip.hidden=true;return;}
            this.tip.textContent=describe(hit);this.tip.hidden=false;
            this.tip.style.left=(e.clientX+14)+'px';this.tip.style.top=(e.clientY+14)+'px';}
          first(row,t){let lo=0,hi=row.starts.length;while(lo<hi){const m=(lo+hi)>>1;if(row.starts[m]<t)lo=m+1;else\#
         hi=m;}return lo;}
          find(row,t,slack){let best=-1,dist=slack;
            for(let k=Math.max(this.first(row,t-row.longest-slack)-1,0);k<row.ops.length&&row.starts[k]<=t+slack;k++){
              const i=row.ops[k],s=row.starts[k],e=row.instant?s:ops.end[i];
              const d=t<s?s-t:t>e?t-e:0;if(d<=dist){dist=d;best=i;}}
            return best;}
          draw(){
            const width=this.plotWidth(),scale=width/(this.t1-this.t0),top=24,h=this.rowHeight,x0=this.labelWidth;
            const height=top+this.rows.length*h+4;const parts=[];
            const step=niceStep((this.t1-this.t0)/Math.max(width/90,1));
            for(let t=Math.ceil(this.t0/step)*step;t<=this.t1;t+=step){const x=x0+(t-this.t0)*scale;
              const label=x<x0+width-50?`<text x="${x+2}" y="12">${t===0?'0':seconds(t)}</text>`:'';
              parts.push(`<line class="grid" x1="${x}" x2="${x}" y1="18" y2="${height}"/>`+label);}
            this.rows.forEach((row,r)=>{const y=top+r*h;
              parts.push(`<text x="4" y="${y+14}">${escapeHTML(row.label)}</text>`);
              let run=null;const flush=()=>{if(run)parts.push(`<rect class="bar" x="${run.a.toFixed(1)}" y="${y+2}"\#
         width="${Math.max(run.b-run.a,1).toFixed(1)}" height="${h-4}" fill="${run.c}"><title>${run.n>1?run.n+'\#
         operations':escapeHTML(ops.id[run.i])}</title></rect>`);};
              for(let k=this.first(row,this.t0-row.longest);k<row.ops.length&&row.starts[k]<=this.t1;k++){
                const i=row.ops[k],s=row.starts[k],e=row.instant?s:ops.end[i];if(e<this.t0)continue;
                const a=x0+Math.max(s-this.t0,0)*scale,b=Math.max(x0+(Math.min(e,this.t1)-this.t0)*scale,\#
        a+(row.instant?2:1));
                const c=kinds[ops.outcome[i]].colour;
                if(run&&run.c===c&&a<=run.b+0.5&&(b-a<2||run.b-run.a<2)){run.b=Math.max(run.b,b);run.n++;continue;}
                flush();run={a:a,b:b,c:c,n:1,i:i};}
              flush();});
            this.svg.setAttribute('height',String(height));
            this.svg.setAttribute('viewBox',`0 0 ${x0+width+8} ${height}`);
            this.svg.innerHTML=parts.join('');}
        }
        function niceStep(raw){const p=Math.pow(10,Math.floor(Math.log10(raw)));const f=raw/p;return\#
         (f<=1?1:f<=2?2:f<=5?5:10)*p;}

        """#
}
