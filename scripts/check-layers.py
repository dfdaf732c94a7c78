#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the layering docs/architecture.md describes, from the #include lines of every source file git tracks:
core/ includes nothing from ui/ or app/, ui/ nothing from app/, and no two folders include from each other, directly
or through others (a cycle of folders). Prints each violation with the includes that make it; exits 1 if any."""
import collections
import os
import re
import subprocess
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
files = [f for f in subprocess.check_output(["git", "ls-files", "core", "ui", "app"], text=True).split()
         if f.endswith((".h", ".cpp"))]
folder_of = {f: os.path.dirname(f) for f in files}
roots = {"core": ["core"], "ui": ["ui", "core"], "app": ["app", "ui", "core"]}


def resolve(include, path):
    """The tracked file an include names, looked up as the build's include paths do, or None (Qt, std, ...)."""
    for base in roots[path.split("/")[0]] + [os.path.dirname(path)]:
        candidate = os.path.normpath(os.path.join(base, include))
        if candidate in folder_of:
            return candidate
    return None


edges = collections.defaultdict(list)  # folder -> [(to folder, file, included file)]
problems = []
for path in files:
    with open(path, encoding="utf-8", errors="replace") as source:
        for line in source:
            match = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not match:
                continue
            target = resolve(match.group(1), path)
            if target is None:
                continue
            layer, target_layer = path.split("/")[0], target.split("/")[0]
            if ["core", "ui", "app"].index(target_layer) > ["core", "ui", "app"].index(layer):
                problems.append(f"{path} includes {target}: {layer}/ may not use {target_layer}/")
            if folder_of[target] != folder_of[path]:
                edges[folder_of[path]].append((folder_of[target], path, target))

graph = {a: {b for b, _, _ in targets} for a, targets in edges.items()}
index, low, stack, on_stack, components = {}, {}, [], set(), []


def strongly_connected(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on_stack.add(v)
    for w in graph.get(v, ()):
        if w not in index:
            strongly_connected(w)
            low[v] = min(low[v], low[w])
        elif w in on_stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop()
            on_stack.discard(w)
            component.append(w)
            if w == v:
                break
        if len(component) > 1:
            components.append(sorted(component))


sys.setrecursionlimit(10000)
for folder in list(graph):
    if folder not in index:
        strongly_connected(folder)
for component in components:
    problems.append("folders that include from each other: " + ", ".join(component))
    for a in component:
        for b, path, target in edges[a]:
            if b in component:
                problems.append(f"    {path} -> {target}")

for problem in problems:
    print(problem)
if problems:
    sys.exit(1)
print(f"layers: {len(files)} files, {len(graph)} folders, no folder cycle, core and ui include nothing above them")
