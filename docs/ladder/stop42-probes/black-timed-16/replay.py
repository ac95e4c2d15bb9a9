import re,sys
def replay(path, upto=None):
    s=open(path).read()
    moves=re.findall(r';([BW])\[([a-z]{0,2})\]',s)
    N=9; b=[['.']*N for _ in range(N)]
    def nb(x,y):
        for dx,dy in((1,0),(-1,0),(0,1),(0,-1)):
            if 0<=x+dx<N and 0<=y+dy<N: yield x+dx,y+dy
    def group(x,y):
        c=b[y][x]; st=[(x,y)]; seen={(x,y)}; libs=set()
        while st:
            p=st.pop()
            for q in nb(*p):
                v=b[q[1]][q[0]]
                if v=='.': libs.add(q)
                elif v==c and q not in seen: seen.add(q); st.append(q)
        return seen,libs
    hist=[]
    for i,(c,m) in enumerate(moves):
        if upto is not None and i>=upto: break
        if m=='' : hist.append((c,'pass')); continue
        x=ord(m[0])-97; y=ord(m[1])-97
        b[y][x]=c; o='W' if c=='B' else 'B'
        for q in nb(x,y):
            if b[q[1]][q[0]]==o:
                g,l=group(*q)
                if not l:
                    for (gx,gy) in g: b[gy][gx]='.'
        hist.append((c,'ABCDEFGHJ'[x]+str(N-y)))
    for y in range(N):
        print(str(N-y), ' '.join(b[y]))
    print('  '+' '.join('ABCDEFGHJ'))
    print(hist[-14:])
replay(sys.argv[1], int(sys.argv[2]) if len(sys.argv)>2 else None)
