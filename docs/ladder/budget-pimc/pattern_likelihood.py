#!/usr/bin/env python3
# How well 3x3 patterns predict a player's moves (stop 30, an analysis, not engine code): for each move of
# the named player in the true games of a folder (`match --sgf`), every empty point's 3x3 neighbourhood
# (own / other / empty / off-board, the smallest of its 8 symmetric forms) and its line (1-4+); a
# Bradley-Terry strength per pattern fitted by Coulom's minorization-maximization (one virtual win and loss
# against strength 1) on the even-numbered games, scored on the odd-numbered ones (mean log-likelihood per
# move, nats).
#   pattern_likelihood.py SGF_DIR PLAYER_NAME_PART
import re,glob,math,sys,collections
N=9
def load(f):
    t=open(f).read()
    pb=re.search(r'PB\[([^\]]*)\]',t).group(1); pw=re.search(r'PW\[([^\]]*)\]',t).group(1)
    mv=[]
    for c,v in re.findall(r';([BW])\[([a-z]{0,2})\]',t):
        mv.append((c, None if v in ('','tt') else (ord(v[0])-97,ord(v[1])-97)))
    return {'B':pb,'W':pw},mv
def nb(p):
    x,y=p
    for dx,dy in ((1,0),(-1,0),(0,1),(0,-1)):
        if 0<=x+dx<N and 0<=y+dy<N: yield (x+dx,y+dy)
def group(b,p):
    c=b[p]; seen={p}; st=[p]; libs=set()
    while st:
        q=st.pop()
        for r in nb(q):
            if r not in b: libs.add(r)
            elif b[r]==c and r not in seen: seen.add(r); st.append(r)
    return seen,libs
def play(b,c,p):
    b[p]=c; o='W' if c=='B' else 'B'; cap=0
    for r in nb(p):
        if r in b and b[r]==o:
            g,l=group(b,r)
            if not l:
                for q in g: del b[q]
                cap+=len(g)
    return cap
OFFS=[(-1,-1),(0,-1),(1,-1),(1,0),(1,1),(0,1),(-1,1),(-1,0)]
def syms():
    out=[]
    for sw in (False,True):
        for fx in (1,-1):
            for fy in (1,-1):
                out.append((sw,fx,fy))
    return out
SY=syms()
def pattern(b,p,me):
    x,y=p; best=None
    for sw,fx,fy in SY:
        code=[]
        for dx,dy in OFFS:
            if sw: dx,dy=dy,dx
            q=(x+dx*fx,y+dy*fy)
            if not(0<=q[0]<N and 0<=q[1]<N): code.append('#')
            elif q not in b: code.append('.')
            elif b[q]==me: code.append('o')
            else: code.append('x')
        s=''.join(code)
        if best is None or s<best: best=s
    # add edge distance (line) bucket
    line=min(x,y,N-1-x,N-1-y); 
    return best+str(min(line,3))
def samples(files, who):
    out=[]
    for f in files:
        names,mv=load(f); b={}
        for c,p in mv:
            if p is None: continue
            if who in names[c].lower() and p not in b:
                cands=[(i,j) for i in range(N) for j in range(N) if (i,j) not in b]
                pats=collections.Counter(pattern(b,q,c) for q in cands)
                out.append((pattern(b,p,c),pats))
            if p in b: continue
            play(b,c,p)
    return out
files=sorted(glob.glob(sys.argv[1]+'/*.sgf')); who=sys.argv[2]
train=samples(files[::2],who); test=samples(files[1::2],who)
g=collections.defaultdict(lambda:1.0)
W=collections.Counter(s[0] for s in train)
for it in range(60):
    denom=collections.Counter()
    for mvp,pats in train:
        E=sum(n*g[p] for p,n in pats.items())
        for p,n in pats.items(): denom[p]+=n/E
    for p in denom:
        g[p]=(W[p]+1.0)/(denom[p]+2.0/(g[p]+1.0))
def ll(data):
    t=0
    for mvp,pats in data:
        E=sum(n*g[p] for p,n in pats.items()); t+=math.log(g[mvp]/E)
    return t/len(data)
def llu(data): return sum(-math.log(sum(p.values())) for _,p in data)/len(data)
print(who,'train',len(train),'test',len(test),'uniform test %.4f'%llu(test),'pattern train %.4f test %.4f'%(ll(train),ll(test)), 'patterns',len(W))
