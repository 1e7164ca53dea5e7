"""Writes hostile-but-valid graphs for the bad-input matrix.

make_graph.py chain N OUT   a chain of N elementwise ops (N-1 buffers live
                            one after another)
make_graph.py nest N OUT    one op nested N regions deep
"""
import sys

kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
t = "tensor<64xf32>"
lines = [f"func.func @f(%a: {t}) -> {t} {{"]
if kind == "chain":
    lines.append(f'  %v0 = "torch.aten.neg"(%a) : ({t}) -> {t}')
    for i in range(1, n):
        lines.append(f'  %v{i} = "torch.aten.add"(%v{i-1}, %a) : ({t}, {t}) -> {t}')
    lines.append(f"  return %v{n-1} : {t}")
else:
    lines += ['"test.wrap"() ({'] * n
    lines.append(f'  %z = "torch.aten.neg"(%a) : ({t}) -> {t}')
    lines += ['}) : () -> ()'] * n
    lines.append(f"  return %a : {t}")
lines.append("}")
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
