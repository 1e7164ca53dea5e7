"""The KV cache's second copy (issue 48): each functional cache update given
the storage of the mutable buffer it is copied back into.

An exported decoder updates its cache functionally: `index_put` (or
`index_copy`) of the cache buffer writes a new tensor, which attention
reads, and ExecuTorch's write-back pass copies it into the buffer at the
method's end (`copy_(buffer, update)`). Both tensors are planned, so a
decoder's arena holds its cache twice. Where nothing reads the buffer's old
contents after the update, the update may write into the buffer itself:
ExecuTorch's memory planning pass already honours `_share_alloc_with_arg_idx`
on a node (its output spec gets the argument's spec as `storage_base`), and
the out-variant kernel then runs with its output aliasing its input.

`pair_cache_updates` proves each pairing on the graph that the memory
planning pass receives (out-variants, write-backs inserted) and marks it:
- the update is `aten::index_put.out` or `aten::index_copy.out` whose input
  (argument 0) is a placeholder of a mutable buffer;
- that buffer's only write-back is `copy_(buffer, update)`;
- no node after the update reads the buffer, directly or through a view of
  it (a reader before the update sees the old contents, as it should);
- the update's output has the buffer's shape and dtype.
Anything else is left as it is and said why. The write-back's value in the
method's output (a spec of its own, live at the output node) is given the
buffer's storage too: it is the buffer.
"""
from dataclasses import dataclass, field

UPDATE_OPS = ("aten::index_put.out", "aten::index_copy.out")
WRITE_BACK = "aten::copy_"
# Ops whose output shares its input's bytes at this stage (views that
# ExecuTorch keeps as views).
VIEW_OPS = ("executorch_prim::et_view", "executorch.exir.memory.view",
            "aten::alias", "aten::view", "aten::_unsafe_view")


@dataclass
class CachePairing:
    """One update written into its buffer: `bytes` is the size of the
    update's tensor, which no longer needs storage of its own."""
    update: str
    buffer: str
    bytes: int
    # The specs given the buffer's storage: the update's, and the
    # write-back's value in the method's output where it has one of its own.
    specs: list = field(default_factory=list, repr=False)


@dataclass
class Refusal:
    """An update that is not paired, and why."""
    update: str
    buffer: str
    reason: str


def op_name(target):
    schema = getattr(target, "_schema", None) or \
        getattr(getattr(target, "_op", None), "_schema", None)
    if schema is None:     # a Python function, such as memory.view
        return f"{getattr(target, '__module__', '')}." \
            f"{getattr(target, '__name__', target)}"
    if schema.overload_name:
        return f"{schema.name}.{schema.overload_name}"
    return schema.name


def _is_op(node, names):
    if node.op != "call_function":
        return False
    name = op_name(node.target)
    return name in names or name.split(".")[0] in names


def mutable_buffers(graph_signature):
    """placeholder name -> buffer name, for the buffers the method
    mutates."""
    if graph_signature is None:
        return {}
    mutated = set(graph_signature.buffers_to_mutate.values())
    return {placeholder: buffer for placeholder, buffer in
            graph_signature.inputs_to_buffers.items() if buffer in mutated}


def _aliases(placeholder, nodes):
    """The placeholder and every view of it, transitively."""
    found = {placeholder}
    for node in nodes:
        if _is_op(node, VIEW_OPS) and node.args and node.args[0] in found:
            found.add(node)
    return found


def _same_layout(update, placeholder):
    mine = update.meta.get("spec")
    theirs = placeholder.meta.get("spec")
    return mine is not None and theirs is not None and \
        tuple(mine.shape) == tuple(theirs.shape) and \
        mine.dtype == theirs.dtype


def _refusal(node, placeholder, order, nodes):
    """Why `node` may not write into `placeholder`'s storage, or None."""
    write_backs = [user for user in placeholder.users
                   if _is_op(user, (WRITE_BACK,))]
    if len(write_backs) != 1 or write_backs[0].args[1:2] != (node,):
        return "the buffer is not written back from this update alone"
    write_back = write_backs[0]
    for alias in _aliases(placeholder, nodes):
        for reader in alias.users:
            if reader in (node, write_back) or \
                    order[reader] < order[node]:
                continue
            return (f"{reader.name} reads the buffer's old contents after "
                    "the update")
    if not _same_layout(node, placeholder):
        return "the update's shape or dtype is not the buffer's"
    return None


def _returned_value_in_buffer(nodes, write_back, placeholder):
    """The method's output lists each write-back, and its spec there is a
    tensor of its own, live at the output node only: the value `copy_`
    returns, which is the buffer. Once the updates no longer keep a second
    cache alive, those specs would hold one at the output node; they are
    given the buffer's storage."""
    output = nodes[-1]
    if output.op != "output" or not output.args:
        return []
    specs = output.meta.get("spec")
    values = output.args[0]
    if not isinstance(values, (list, tuple)) or \
            not isinstance(specs, (list, tuple)) or \
            len(specs) != len(values):
        return []
    buffer_spec = placeholder.meta.get("spec")
    backed = []
    for value, spec in zip(values, specs):
        if value is write_back and spec is not None and \
                spec is not buffer_spec and spec.storage_base is None and \
                tuple(spec.shape) == tuple(buffer_spec.shape) and \
                spec.dtype == buffer_spec.dtype:
            spec.storage_base = buffer_spec
            spec.storage_base_offset = 0
            backed.append(spec)
    return backed


def pair_cache_updates(graph_module, graph_signature):
    """Marks each provable pairing (node.meta['_share_alloc_with_arg_idx']
    = 0, read by ExecuTorch's memory planning pass) and returns
    (pairings, refusals)."""
    buffers = mutable_buffers(graph_signature)
    nodes = list(graph_module.graph.nodes)
    order = {node: index for index, node in enumerate(nodes)}
    pairings, refusals = [], []
    for node in nodes:
        if not _is_op(node, UPDATE_OPS) or not node.args:
            continue
        placeholder = node.args[0]
        if getattr(placeholder, "op", None) != "placeholder" or \
                placeholder.name not in buffers:
            continue
        buffer = buffers[placeholder.name]
        reason = _refusal(node, placeholder, order, nodes)
        if reason:
            refusals.append(Refusal(node.name, buffer, reason))
            continue
        node.meta["_share_alloc_with_arg_idx"] = 0
        write_back = next(user for user in placeholder.users
                          if _is_op(user, (WRITE_BACK,)))
        returned = _returned_value_in_buffer(nodes, write_back, placeholder)
        spec = node.meta["spec"]
        pairings.append(CachePairing(node.name, buffer,
                                     spec.allocated_memory,
                                     [spec] + returned))
    return pairings, refusals
