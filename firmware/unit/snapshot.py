"""A cheap copy of a game's UI controller for drawing ahead: what may change is copied,
values are shared.

``copy.deepcopy`` copies everything a controller reaches, also the values that never
change: a Swytch picker with every move of the position (3 ms here a copy, a press's
worth of CPU on a Zero). :func:`snapshot` copies like it, but stops at values: frozen
dataclasses, tuples and frozensets of values, numbers, strings, enums, functions and
types are shared, as the unit's UI states and engine states are immutable values.
Mutable containers (dict, list, set, deque) and plain objects (their ``__dict__`` and
slots) are copied, each once (shared references stay shared); a bound method of a
copied object is bound to its copy. Anything else falls back to ``copy.deepcopy``.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import functools
import types
from collections import deque
from typing import Any, TypeVar

T = TypeVar("T")

#: Types whose values never change (shared, not copied).
_ATOMS: tuple[type, ...] = (
    type(None), bool, int, float, complex, str, bytes, range, enum.Enum, type,
    types.FunctionType, types.BuiltinFunctionType,
)  # fmt: skip
#: A class's own copy protocol (it copies itself: deepcopy does that).
_PROTOCOL = ("__deepcopy__", "__copy__", "__reduce_ex__", "__reduce__", "__getstate__")
_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class defined in Python


def snapshot(obj: T, memo: dict[int, Any] | None = None) -> T:
    """A copy of ``obj`` that shares its immutable values (see the module docstring);
    ``memo``: ids already copied (or to share: ``{id(x): x}``), as deepcopy's."""
    copied: T = _copy(obj, {} if memo is None else memo)
    return copied


def _copy(obj: Any, memo: dict[int, Any]) -> Any:
    found = memo.get(id(obj), memo)
    if found is not memo:
        return found
    cls: type = type(obj)
    if isinstance(obj, _ATOMS) or _frozen(cls):
        return obj
    if cls is tuple or cls is frozenset:
        items = [_copy(x, memo) for x in obj]
        if all(a is b for a, b in zip(items, obj, strict=True)):
            return obj
        return cls(items)
    if cls is list:
        new_list: list[Any] = []
        memo[id(obj)] = new_list
        new_list.extend(_copy(x, memo) for x in obj)
        return new_list
    if cls is dict:
        new_dict: dict[Any, Any] = {}
        memo[id(obj)] = new_dict
        new_dict.update((k, _copy(v, memo)) for k, v in obj.items())  # keys: values
        return new_dict
    if cls is set:
        memo[id(obj)] = new_set = set(obj)  # members are hashable: values
        return new_set
    if cls is deque:
        new_deque: deque[Any] = deque(maxlen=obj.maxlen)
        memo[id(obj)] = new_deque
        new_deque.extend(_copy(x, memo) for x in obj)
        return new_deque
    if cls is types.MethodType:
        return types.MethodType(obj.__func__, _copy(obj.__self__, memo))
    if _plain(cls):
        new: Any = object.__new__(cls)
        memo[id(obj)] = new
        if hasattr(obj, "__dict__"):
            new.__dict__.update((k, _copy(v, memo)) for k, v in vars(obj).items())
        for name in _slots(cls):
            if hasattr(obj, name):
                object.__setattr__(new, name, _copy(getattr(obj, name), memo))
        return new
    return copy.deepcopy(obj, memo)


@functools.cache
def _frozen(cls: type) -> bool:
    """A frozen dataclass: a value."""
    params = getattr(cls, "__dataclass_params__", None)
    return params is not None and params.frozen and dataclasses.is_dataclass(cls)


@functools.cache
def _plain(cls: type) -> bool:
    """An object of a Python class copied attribute by attribute: no copy protocol of
    its own, no C base with hidden state."""
    if any(getattr(cls, name, None) is not getattr(object, name, None) for name in _PROTOCOL):
        return False
    return all(base is object or base.__flags__ & _HEAP_TYPE for base in cls.__mro__)


@functools.cache
def _slots(cls: type) -> tuple[str, ...]:
    names: list[str] = []
    for base in cls.__mro__:
        slots = base.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else [s for s in slots if s != "__dict__"]
    return tuple(names)
