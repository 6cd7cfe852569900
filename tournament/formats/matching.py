"""Maximum matching in a general graph (Edmonds' blossom algorithm), kept as vertices leave.

Swiss pairing uses it as an oracle: "can everyone still left be paired without a
rematch?" is "does the graph of allowed pairs have a perfect matching?". The
matcher holds a maximum matching and repairs it after a pair is taken out, which
costs one augmenting-path search per freed vertex (usually a single step).

>>> square = Matcher([[1, 3], [0, 2], [1, 3], [0, 2]])  # a 4-cycle
>>> square.size
2
>>> square.remove_pair(0, 2)  # 1 and 3 are not adjacent: nothing left to match
0
>>> triangle_and_tail = Matcher([[1, 2], [0, 2], [0, 1, 3], [2]])
>>> triangle_and_tail.size, triangle_and_tail.mate[3]
(2, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

_NONE = -1


class Matcher:
    """A maximum matching of the graph ``adjacency`` (vertex -> neighbours), vertices 0..n-1."""

    def __init__(
        self,
        adjacency: Sequence[Sequence[int]],
        *,
        start: Sequence[int] = (),
        only: Iterable[int] | None = None,
    ) -> None:
        """Start from the pairs in ``start`` (a flat list ``[a1, b1, a2, b2, ...]`` of edges,
        taken greedily when both ends are free), then augment to a maximum matching.

        ``only``: match just these vertices (the others are out from the start), which
        lets a subgraph share its parent graph's adjacency lists.
        """
        self.adjacency = adjacency
        self.n = len(adjacency)
        self.mate = [_NONE] * self.n
        if only is None:
            self.alive = [True] * self.n
        else:
            self.alive = [False] * self.n
            for v in only:
                self.alive[v] = True
        self.live = sum(self.alive)
        self.size = 0
        mate, alive = self.mate, self.alive
        for k in range(0, len(start) - 1, 2):
            a, b = start[k], start[k + 1]
            if alive[a] and alive[b] and mate[a] == _NONE and mate[b] == _NONE:
                mate[a], mate[b] = b, a
                self.size += 1
        for v in range(self.n):  # then greedily, which leaves little to augment
            if alive[v] and mate[v] == _NONE:
                for u in adjacency[v]:
                    if alive[u] and mate[u] == _NONE and u != v:
                        mate[v], mate[u] = u, v
                        self.size += 1
                        break
        for v in range(self.n):
            if alive[v] and mate[v] == _NONE:
                self._augment_from(v)

    def remove(self, *vertices: int) -> int:
        """Take ``vertices`` out of the graph for good; return the new maximum matching size."""
        # The matching cannot end larger than before, nor than half the live vertices,
        # and taking out two neighbours costs at least the pair they could make.
        leaving = {v for v in vertices if self.alive[v]}
        neighbours = len(leaving) == 2 and vertices[1] in self.adjacency[vertices[0]]
        bound = min(self.size - neighbours, (self.live - len(leaving)) // 2)
        freed = []
        for v in vertices:
            partner = self.mate[v]
            if partner != _NONE:
                self.mate[partner] = _NONE
                self.mate[v] = _NONE
                self.size -= 1
                freed.append(partner)
            if self.alive[v]:
                self.alive[v] = False
                self.live -= 1
        # Every augmenting path now ends at a freed vertex: if none starts from one, the
        # matching is maximum. But once one is used, a new path may join two vertices
        # that were free before: then search from those too, until the bound is reached.
        failed = set()
        for v in freed:
            free = self.size < bound and self.alive[v] and self.mate[v] == _NONE
            if free and not self._augment_from(v):
                failed.add(v)
        if self.size < bound and len(failed) < len(freed):
            for v in range(self.n):
                if self.size >= bound:
                    break
                if self.alive[v] and self.mate[v] == _NONE and v not in failed:
                    self._augment_from(v)
        return self.size

    def remove_pair(self, a: int, b: int) -> int:
        """Take the pair ``a``, ``b`` out; return the new maximum matching size."""
        return self.remove(a, b)

    def remove_quickly(self, *vertices: int, target: int) -> bool:
        """Take ``vertices`` out if short augmenting paths bring the matching to ``target``.

        ``target`` must be an upper bound of the maximum matching once they are gone
        (the old size less one per pair taken out, say), so that reaching it proves the
        matching maximum. Returns whether it was done; when not, nothing has changed.
        """
        state = self.snapshot()
        freed = []
        for v in vertices:
            partner = self.mate[v]
            if partner != _NONE:
                self.mate[partner] = self.mate[v] = _NONE
                self.size -= 1
                freed.append(partner)
            if self.alive[v]:
                self.alive[v] = False
                self.live -= 1
        for v in freed:
            if self.size >= target:
                break
            if self.alive[v] and self.mate[v] == _NONE:
                self._augment_short(v)
        if self.size >= target:
            return True
        self.restore(state)
        return False

    def perfect_partners(self, v: int) -> list[bool]:
        """For a perfect matching of the live vertices: which ``u`` leave, once the pair
        ``v``, ``u`` is taken out, a graph that still has a perfect matching.

        One Edmonds search from ``v``'s mate in the graph without ``v``: the outer
        vertices it reaches are exactly those partners (Gallai-Edmonds). Neighbours of
        ``v`` only are meaningful.
        """
        partner = self.mate[v]
        if partner == _NONE:
            raise ValueError(f"vertex {v} is not matched: the matching is not perfect")
        self.mate[v] = self.mate[partner] = _NONE
        self.alive[v] = False
        try:
            end, _, outer = self._find_path(partner)
        finally:
            self.alive[v] = True
            self.mate[v], self.mate[partner] = partner, v
        if end != _NONE:
            raise ValueError("the matching was not maximum")
        return outer

    def snapshot(self) -> tuple[list[int], list[bool], int, int]:
        """The state to hand back to ``restore`` if a tentative removal is undone."""
        return self.mate.copy(), self.alive.copy(), self.size, self.live

    def restore(self, state: tuple[list[int], list[bool], int, int]) -> None:
        """Return to a ``snapshot``."""
        mate, alive, size, live = state
        self.mate, self.alive, self.size, self.live = mate.copy(), alive.copy(), size, live

    def _augment_from(self, root: int) -> bool:
        """Grow the matching by an augmenting path from the free vertex ``root``, if any."""
        if self._augment_short(root):
            return True
        end, parent, _ = self._find_path(root)
        if end == _NONE:
            return False
        mate = self.mate
        v = end
        while v != _NONE:
            pv = parent[v]
            ppv = mate[pv]
            mate[v], mate[pv] = pv, v
            v = ppv
        self.size += 1
        return True

    def _augment_short(self, root: int) -> bool:
        """Try the augmenting paths of length 1 and 3, which dense graphs almost always have.

        Cheaper than the general search, which on a dense graph spends its time
        contracting the many triangles around ``root``.
        """
        mate, alive, adjacency = self.mate, self.alive, self.adjacency
        free = {v for v in range(self.n) if alive[v] and mate[v] == _NONE and v != root}
        if not free:
            return False
        for f in adjacency[root]:
            if f in free:
                mate[root], mate[f] = f, root
                self.size += 1
                return True
        few = [(f, set(adjacency[f])) for f in free] if len(free) <= 8 else []
        for x in adjacency[root]:
            y = mate[x]
            if not alive[x] or y == _NONE:
                continue
            if few:
                end = next((f for f, ends in few if y in ends), _NONE)
            else:
                end = next((f for f in adjacency[y] if f in free), _NONE)
            if end != _NONE:
                mate[root], mate[x] = x, root
                mate[y], mate[end] = end, y
                self.size += 1
                return True
        return False

    def _find_path(self, root: int) -> tuple[int, list[int], list[bool]]:
        """Edmonds' search from ``root``: the free vertex ending an augmenting path (or -1),
        the parent links that trace the path back, and the outer (even) vertices reached."""
        n, mate, alive, adjacency = self.n, self.mate, self.alive, self.adjacency
        used = [False] * n
        parent = [_NONE] * n
        base = list(range(n))
        used[root] = True
        queue = [root]
        tree = [root]
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in adjacency[v]:
                if not alive[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != _NONE and parent[mate[to]] != _NONE):
                    current = self._common_base(v, to, base, parent)
                    blossom = dict.fromkeys(tree, False)
                    self._mark_path(v, current, to, base, parent, blossom)
                    self._mark_path(to, current, v, base, parent, blossom)
                    for i in tree:
                        if blossom[base[i]]:
                            base[i] = current
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == _NONE:
                    parent[to] = v
                    tree.append(to)
                    if mate[to] == _NONE:
                        return to, parent, used
                    used[mate[to]] = True
                    queue.append(mate[to])
                    tree.append(mate[to])
        return _NONE, parent, used

    def _common_base(self, a: int, b: int, base: list[int], parent: list[int]) -> int:
        mate = self.mate
        seen = [False] * self.n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == _NONE:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def _mark_path(
        self,
        v: int,
        stop: int,
        child: int,
        base: list[int],
        parent: list[int],
        blossom: dict[int, bool],
    ) -> None:
        mate = self.mate
        while base[v] != stop:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]
