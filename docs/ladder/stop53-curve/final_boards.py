"""Replays SGF files of true games (match --sgf) to the end and prints each final board with its area owners
(stones B/W, empty points b/w by the colour whose area they are, ? neutral) and the area count, each checked
against the referee's recorded result (RE, KM). Usage: python3 final_boards.py FILE..."""
import re,sys
def final(path):
    s=open(path).read()
    N=int(re.search(r'SZ\[(\d+)\]',s).group(1))
    moves=re.findall(r';([BW])\[([a-z]{0,2})\]',s)
    b=[['.']*N for _ in range(N)]
    def nb(x,y):
        for dx,dy in((1,0),(-1,0),(0,1),(0,-1)):
            if 0<=x+dx<N and 0<=y+dy<N: yield x+dx,y+dy
    def group(x,y):
        c=b[y][x];st=[(x,y)];seen={(x,y)};libs=set()
        while st:
            p=st.pop()
            for q in nb(*p):
                v=b[q[1]][q[0]]
                if v=='.': libs.add(q)
                elif v==c and q not in seen: seen.add(q);st.append(q)
        return seen,libs
    for c,m in moves:
        if m=='' or m=='tt': continue
        x,y=ord(m[0])-97,ord(m[1])-97
        b[y][x]=c; o='W' if c=='B' else 'B'
        for q in nb(x,y):
            if b[q[1]][q[0]]==o:
                g,l=group(*q)
                if not l:
                    for p in g: b[p[1]][p[0]]='.'
    # score regions
    own=[[b[y][x] for x in range(N)] for y in range(N)]
    seen=set()
    for y in range(N):
        for x in range(N):
            if b[y][x]=='.' and (x,y) not in seen:
                st=[(x,y)];reg={(x,y)};border=set()
                while st:
                    p=st.pop()
                    for q in nb(*p):
                        v=b[q[1]][q[0]]
                        if v=='.' and q not in reg: reg.add(q);st.append(q)
                        elif v!='.': border.add(v)
                seen|=reg
                mark='b' if border=={'B'} else 'w' if border=={'W'} else '?'
                for p in reg: own[p[1]][p[0]]=mark
    return N,b,own,len(moves)
for p in sys.argv[1:]:
    N,b,own,n=final(p)
    print(p,n,'moves')
    for y in range(N): print(' '.join(own[y][x] if b[y][x]=='.' else b[y][x] for x in range(N)))
    flat=sum(own,[])
    black, white = flat.count('B')+flat.count('b'), flat.count('W')+flat.count('w')
    print('B',black,'W',white,'dame',flat.count('?'))
    # The replay is checked against the referee's own result (the SGF's RE and KM): a mismatch means this
    # replay, not the game, is wrong.
    s=open(p).read()
    komi=float(re.search(r'KM\[([^\]]*)\]',s).group(1)); result=re.search(r'RE\[([^\]]*)\]',s).group(1)
    margin=black-white-komi
    mine=('B+' if margin>0 else 'W+')+f'{abs(margin):g}'
    assert mine==result, f'{p}: replayed {mine}, the referee said {result}'
