"""The preview page: server-rendered HTML (so it reads without scripts), a little JavaScript
for filtering, the large view, and the refresh pushed by server-sent events."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from cardgen.core.problems import display_path
from cardgen.serve.preview import Entry, Snapshot, problem_dict

GRID_DPI = 100
LARGE_DPI = 200

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#eceae4;color:#222}
header{position:sticky;top:0;background:#2b2a28;color:#eee;padding:8px 16px;display:flex;gap:12px;
 align-items:center;flex-wrap:wrap;z-index:2}
header h1{font-size:17px;margin:0 12px 0 0}header select,header input{font:inherit;padding:2px 6px}
#status{margin-left:auto;font-size:12px;opacity:.8}
main{padding:12px 16px}.grid{display:flex;flex-wrap:wrap;gap:12px}
.card{width:250px;background:#fff;border-radius:6px;box-shadow:0 1px 3px #0003;padding:6px;cursor:pointer}
.card img{width:100%;display:block;border-radius:3px}.card .cap{font-size:12px;margin-top:4px}
.card .src,.meta .src{color:#777;font-size:11px;word-break:break-all}.noimg.big{height:80vh;width:57vh}.card.hidden{display:none}
.broken{border:2px solid #b3261e}.probs{list-style:none;padding:0;margin:4px 0 0;font-size:12px}
.probs li{padding:3px 5px;margin:2px 0;border-radius:3px;background:#fdecea}
.probs li.warning{background:#fff4d6}.probs li.note{background:#e8f0fe}.rule{font-weight:600}
.noimg{height:330px;display:flex;align-items:center;justify-content:center;background:#f7d9d6;
 color:#7a1a14;font-weight:600;border-radius:3px;text-align:center;padding:8px}
#large{position:fixed;inset:0;background:#000b;display:none;align-items:center;justify-content:center;z-index:3}
#large.on{display:flex}#large .box{background:#fff;padding:12px;border-radius:8px;max-height:95vh;overflow:auto;
 display:flex;gap:12px}#large img{height:80vh}#large .meta{max-width:320px}
section.more{margin-top:20px}
"""

SCRIPT = """
const $=s=>document.querySelector(s),$$=s=>[...document.querySelectorAll(s)];
function filt(){const t=$('#ftype').value,s=$('#fset').value,q=$('#fname').value.toLowerCase();
 $$('.card').forEach(c=>{const ok=(!t||c.dataset.type===t)&&(!s||c.dataset.set===s)&&
  (!q||c.dataset.search.includes(q));c.classList.toggle('hidden',!ok)});}
function show(c){const d=JSON.parse(c.dataset.json);let h='';
 if(d.broken)h+=`<div class="noimg big">${esc(d.name)}: not drawn — see its problems</div>`;
 for(const [side,key] of Object.entries(d.faces)){if(d.broken&&side==='front')continue;
  h+=`<img alt="${side}" src="/face/${key}.png?dpi=LARGE_DPI">`;}
 h+=`<div class="meta" id="meta"><h2>${esc(d.name)}</h2><p>${esc(d.id)} · ${esc(d.type_name)}`+
  `${d.set?' · '+esc(d.set):''} · ${d.copies} ×</p><p class="src">${esc(d.file_line)}</p>`+
  `<ul class="probs">${d.problems.map(p=>`<li class="${p.severity}"><span class="rule">${esc(p.rule)}</span> `+
  `${esc(p.where||'')}: ${esc(p.message)}</li>`).join('')}</ul><p>${esc(d.text)}</p></div>`;
 $('#large .box').innerHTML=h;$('#large').classList.add('on');history.replaceState(null,'','#card='+d.id);}
function hide(){$('#large').classList.remove('on');history.replaceState(null,'',location.pathname)}
function deep(){const m=location.hash.match(/^#card=(.+)$/);const c=m&&document.getElementById('card-'+decodeURIComponent(m[1]));
 if(c)show(c);}
function esc(s){return String(s).replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]))}
const TITLE=document.title;let last='';
function seen(){const m={};$$('.card').forEach(c=>m[c.id]=c.dataset.json);return m}
async function refresh(){const r=await fetch('/cards',{cache:'no-store'});const html=await r.text();
 const doc=new DOMParser().parseFromString(html,'text/html');const before=seen();$('#cards').replaceWith(doc.querySelector('#cards'));
 $('#general').replaceWith(doc.querySelector('#general'));$('#status').textContent=doc.querySelector('#status').textContent;
 document.body.dataset.version=doc.body.dataset.version;bind();filt();
 const now=seen(),changed=Object.keys(now).filter(k=>before[k]!==now[k]).map(k=>JSON.parse(now[k]).name);
 if(changed.length)last=changed.slice(0,3).join(', ')+' updated · ';
 document.title=last+`v${doc.body.dataset.version} · `+TITLE;}
function bind(){$$('.card').forEach(c=>c.onclick=()=>show(c));}
$('#large').onclick=e=>{if(e.target.id==='large')hide()};
document.onkeydown=e=>{if(e.key==='Escape')hide()};
['#ftype','#fset'].forEach(s=>$(s).onchange=filt);$('#fname').oninput=filt;bind();deep();
const es=new EventSource('/events');es.onmessage=e=>{if(e.data!==document.body.dataset.version)refresh()};
""".replace("LARGE_DPI", str(LARGE_DPI))


def page(snap: Snapshot) -> str:
    """The whole page."""
    types = sorted({(e.type, e.type_name) for e in snap.entries})
    sets = sorted({e.set for e in snap.entries if e.set})
    opts_t = "".join(f'<option value="{escape(k)}">{escape(n)}</option>' for k, n in types)
    opts_s = "".join(f'<option value="{escape(s)}">{escape(s)}</option>' for s in sets)
    more = "".join(f'<li><a href="/printable/{escape(p)}">{escape(p)}</a> (PDF, built on request)</li>'
                   for p in snap.printables)
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(snap.title)} — cardgen '
            f'preview</title><style>{STYLE}</style></head><body data-version="{snap.version}"><header>'
            f'<h1>{escape(snap.title)}</h1><select id="ftype"><option value="">every type</option>{opts_t}</select>'
            f'<select id="fset"><option value="">every set</option>{opts_s}</select>'
            f'<input id="fname" placeholder="name or text" size="18">{status(snap)}</header><main>'
            f'{general(snap)}{grid(snap)}<section class="more"><h2>Boards and rulebook</h2><ul>'
            f'{more or "<li>none</li>"}</ul></section></main><div id="large"><div class="box"></div></div>'
            f'<script>{SCRIPT}</script></body></html>')


def status(snap: Snapshot) -> str:
    n_err = sum(1 for e in snap.entries for p in e.problems if p.severity == "error") + \
        sum(1 for p in snap.general if p.severity == "error")
    return (f'<span id="status">version {snap.version} · {len(snap.entries)} cards · {n_err} error(s) · '
            f'rebuilt in {snap.seconds * 1000:.0f} ms</span>')


def general(snap: Snapshot) -> str:
    return f'<ul id="general" class="probs">{"".join(_problem(p) for p in snap.general)}</ul>'


def fragment(snap: Snapshot) -> str:
    """What a refresh fetches: the grid, the game's own problems and the status line."""
    return (f'<html><body data-version="{snap.version}">{status(snap)}{general(snap)}{grid(snap)}'
            f'</body></html>')


def grid(snap: Snapshot) -> str:
    return f'<div id="cards" class="grid">{"".join(_card(e) for e in snap.entries)}</div>'


def _card(e: Entry) -> str:
    d = e.as_dict()
    d["file_line"] = f"{display_path(e.file)}:{e.line}"
    where = escape(_short(e.file) + f":{e.line}")
    if e.broken:
        body = f'<div class="noimg">{escape(e.name)}: not drawn — see the problems below</div>'
    else:
        body = (f'<img loading="lazy" alt="{escape(e.name)}: {escape(e.text)}" '
                f'src="/face/{e.faces["front"].key}.png?dpi={GRID_DPI}">')
    search = escape(f"{e.id} {e.name} {e.text}".lower())
    return (f'<div class="card{" broken" if e.broken else ""}" id="card-{escape(e.id)}" '
            f'data-type="{escape(e.type)}" data-set="{escape(e.set or "")}" data-search="{search}" '
            f'data-json="{escape(json.dumps(d, ensure_ascii=False))}">{body}<div class="cap"><b class="name">'
            f'{escape(e.name)}</b> · {escape(e.type_name)} · {e.copies}×<div class="src">{where}</div></div>'
            f'<ul class="probs">{"".join(_problem(p) for p in e.problems)}</ul></div>')


def _problem(p: Any) -> str:
    d = problem_dict(p)
    hint = f" ({escape(d['hint'])})" if d["hint"] else ""
    return (f'<li class="{d["severity"]}"><span class="rule">{escape(d["rule"])}</span> {d["severity"]} '
            f'{escape(d["where"] or "")}: {escape(d["message"])}{hint}</li>')


def _short(path: str) -> str:
    parts = path.replace("\\", "/").split("/")
    return "/".join(parts[-2:])
