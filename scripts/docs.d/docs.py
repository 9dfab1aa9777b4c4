#!/usr/bin/env python3
"""The parts of scripts/docs that read JSON. Standard library only.

    python3 scripts/docs.d/docs.py filter RAW_DIR MODULE OUT_DIR
    python3 scripts/docs.d/docs.py report --work DIR --known FILE [--require-full-coverage] MODULE...
    python3 scripts/docs.d/docs.py index SITE_DIR MODULE...

filter   copies MODULE's symbol graphs (MODULE.symbols.json and the graphs of
         its extensions to other modules, MODULE@Other.symbols.json) from the
         compiler's output to OUT_DIR, keeping only symbols MODULE declares:
         napkin re-exports Observation and NapkinWeb re-exports napkin
         (`@_exported import`), and the compiler puts a re-exported module's
         symbols in the graph too, where DocC would show them as the
         module's own. It also puts there what MODULE adds to a re-exported
         module's types, without the extension blocks it writes for any
         other module: filter moves those members to MODULE@Other.symbols.json
         under an extension block made as the compiler makes one (its
         documentation read from the `extension` declaration's comment).

report   reads what `docc convert` wrote for each module under
         DIR/<module>.diagnostics.json and DIR/<module>.doccarchive: prints
         every docc warning (file:line: message), the documentation coverage
         per module, and the public symbols without documentation (with
         where they are declared). Exits 1 when a warning is not in the
         known-warnings file, when a known warning no longer occurs (the list
         must shrink with the fixes), or, with --require-full-coverage, when
         a public symbol has no documentation.

index    writes SITE_DIR/index.html: a small page that links each module's
         documentation (the DocC app itself starts at documentation/).
"""
import argparse
import glob
import html
import json
import os
import re
import shutil
import sys


def usr_prefix(module):
    """How Swift USRs of symbols declared in `module` begin (s:6napkin…)."""
    return "s:%d%s" % (len(module.encode()), module)


# ---------------------------------------------------------------------------
# filter


def filter_graphs(raw, module, out):
    main = os.path.join(raw, module + ".symbols.json")
    if not os.path.exists(main):
        sys.exit("docs: no symbol graph for %s in %s" % (module, raw))
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    with open(main) as f:
        graph = json.load(f)
    own = usr_prefix(module)
    extensions = reexported_extensions(graph, module)
    dropped = {s["identifier"]["precise"] for s in graph["symbols"] if not s["identifier"]["precise"].startswith(own)}
    graph["symbols"] = [s for s in graph["symbols"] if s["identifier"]["precise"] not in dropped]
    graph["relationships"] = [
        r for r in graph["relationships"] if r["source"] not in dropped and r["target"] not in dropped
    ]
    with open(os.path.join(out, module + ".symbols.json"), "w") as f:
        json.dump(graph, f)
    for extension in glob.glob(os.path.join(raw, module + "@*.symbols.json")):
        shutil.copy(extension, out)
    for extended, (symbols, relationships) in extensions.items():
        target = os.path.join(out, "%s@%s.symbols.json" % (module, extended))
        if os.path.exists(target):
            sys.exit("docs: %s extends %s both re-exported and not" % (module, extended))
        with open(target, "w") as f:
            json.dump({"metadata": graph["metadata"], "module": graph["module"],
                       "symbols": symbols, "relationships": relationships}, f)
    if dropped:
        print("docs: %s: left out %d re-exported symbols of other modules" % (module, len(dropped)))


def reexported_extensions(graph, module):
    """What `module`'s own sources add to the types of a module it
    re-exports, found in its graph as members of another module's type:
    {extended module: (symbols, relationships)}, with one extension block
    per extended type and file, as the compiler writes for other modules."""
    own = usr_prefix(module)
    parents = {r["source"]: r for r in graph["relationships"] if r["kind"] == "memberOf"}
    blocks = {}
    for symbol in graph["symbols"]:
        precise = symbol["identifier"]["precise"]
        extended = symbol.get("swiftExtension", {}).get("extendedModule")
        uri = symbol.get("location", {}).get("uri", "")
        if precise.startswith(own) or not extended or extended == module or "/Sources/%s/" % module not in uri:
            continue
        parent = parents.get(precise)
        if parent is None:
            continue
        key = (extended, parent["target"], uri)
        blocks.setdefault(key, {"parent": parent, "members": [], "type": symbol["pathComponents"][0],
                                "typeKind": symbol["swiftExtension"].get("typeKind")})
        blocks[key]["members"].append(symbol)
    result = {}
    for (extended, type_usr, uri), block in blocks.items():
        symbols, relationships = result.setdefault(extended, ([], []))
        name = block["type"]
        line, comment = extension_declaration(uri, name, min(m["location"]["position"]["line"] for m in block["members"]))
        identifier = "s:e:" + block["members"][0]["identifier"]["precise"]
        reference = {"kind": "typeIdentifier", "spelling": name, "preciseIdentifier": type_usr}
        fragments = [{"kind": "keyword", "spelling": "extension"}, {"kind": "text", "spelling": " "}, reference]
        extension = {
            "kind": {"identifier": "swift.extension", "displayName": "Extension"},
            "identifier": {"precise": identifier, "interfaceLanguage": "swift"},
            "pathComponents": [name],
            "names": {"title": name, "navigator": [{"kind": "identifier", "spelling": name}], "subHeading": fragments},
            "swiftExtension": {"extendedModule": extended, "typeKind": block["typeKind"]},
            "declarationFragments": fragments,
            "accessLevel": "public",
            "location": {"uri": uri, "position": {"line": line, "character": 0}},
        }
        if comment:
            extension["docComment"] = {"uri": uri, "module": graph["module"]["name"], "lines": [{"text": text} for text in comment]}
        symbols.append(extension)
        relationships.append({"kind": "extensionTo", "source": identifier, "target": type_usr,
                              "targetFallback": block["parent"].get("targetFallback", extended + "." + name)})
        for member in block["members"]:
            symbols.append(member)
            relationships.append({"kind": "memberOf", "source": member["identifier"]["precise"], "target": identifier,
                                  "targetFallback": extended + "." + name})
    return result


def extension_declaration(uri, name, before):
    """The line (from 0) of the last `extension <name>` in the file at `uri`
    before line `before`, and the `///` comment above it."""
    path = uri[len("file://"):] if uri.startswith("file://") else uri
    with open(path) as f:
        lines = f.read().split("\n")
    pattern = re.compile(r"^\s*(public\s+)?extension\s+%s\b" % re.escape(name))
    declared = max((i for i in range(min(before, len(lines))) if pattern.match(lines[i])), default=0)
    comment = []
    above = declared - 1
    while above >= 0 and lines[above].strip().startswith("///"):
        text = lines[above].strip()[3:]
        comment.insert(0, text[1:] if text.startswith(" ") else text)
        above -= 1
    return declared, comment


# ---------------------------------------------------------------------------
# report


def relative(path, root):
    if path.startswith("file://"):
        path = path[len("file://"):]
    if path.startswith(root + os.sep):
        return path[len(root) + 1:]
    return path


def read_known(path):
    """`path: message` lines; `#` starts a comment."""
    known = []
    if not os.path.exists(path):
        return known
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            known.append((line, number))
    return known


def warnings_of(work, module, root):
    """The warnings (and errors) docc reported for `module`, as
    (key, location, message): key is `path: message`, without the line, so
    an entry of the known-warnings file survives edits above it."""
    path = os.path.join(work, module + ".diagnostics.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        diagnostics = json.load(f).get("diagnostics", [])
    found = []
    for diagnostic in diagnostics:
        if diagnostic.get("severity") not in ("warning", "error"):
            continue
        source = relative(diagnostic.get("source") or "", root) or module
        line = ((diagnostic.get("range") or {}).get("start") or {}).get("line")
        location = "%s:%s" % (source, line) if line else source
        message = " ".join(diagnostic.get("summary", "").split())
        fixes = [" ".join(s["summary"].split()) for s in diagnostic.get("solutions", []) if s.get("summary")]
        if fixes:
            message_with_fixes = "%s (%s)" % (message, "; ".join(fixes))
        else:
            message_with_fixes = message
        found.append(("%s: %s" % (source, message), location, diagnostic["severity"], message_with_fixes))
    return found


def symbol_locations(graphs, module, root):
    """Where each symbol is declared, by its DocC path (`Type/member(_:)`):
    `file:line`, or None for a declaration the compiler made (a synthesized
    `init(from:)`), which no doc comment can document."""
    locations = {}
    for path in glob.glob(os.path.join(graphs, module + "*.symbols.json")):
        with open(path) as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            where = symbol.get("location")
            key = "/".join(symbol["pathComponents"]).lower()
            if where:
                locations[key] = "%s:%d" % (relative(where["uri"], root), where["position"]["line"] + 1)
            else:
                locations.setdefault(key, None)
    return locations


def coverage_of(work, module, graphs, root):
    path = os.path.join(work, module + ".doccarchive", "documentation-coverage.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        entries = json.load(f)
    locations = symbol_locations(graphs, module, root)
    prefix = "/documentation/%s/" % module.lower()
    total = 0
    implicit = 0
    undocumented = []
    for entry in entries:
        kind = entry.get("kind", {})
        if not kind.get("isSymbol") or kind.get("id", "").endswith(".module"):
            continue
        reference = entry["referencePath"]
        at = reference.lower().find(prefix)
        symbol_path = reference[at + len(prefix):] if at >= 0 else reference
        # DocC may add a disambiguation (`-swift.method`, `-3x8ab`) to a
        # path component; the symbol graph has none.
        plain = "/".join(re.sub(r"-[A-Za-z0-9_.]+$", "", part) for part in symbol_path.split("/"))
        key = symbol_path.lower() if symbol_path.lower() in locations else plain.lower()
        if key in locations and locations[key] is None:
            implicit += 1
            continue
        total += 1
        if entry.get("hasAbstract"):
            continue
        undocumented.append((locations.get(key) or "?", "%s/%s" % (module, symbol_path), kind.get("name", "")))
    return total, implicit, sorted(undocumented)


def report(args):
    root = os.getcwd()
    known = read_known(args.known)
    known_keys = {key for key, _ in known}
    seen_known = set()
    new = []
    missing = []
    rows = []
    all_undocumented = []
    for module in args.modules:
        found = warnings_of(args.work, module, root)
        if found is None:
            missing.append(module)
            continue
        for key, location, severity, message in found:
            if key in known_keys:
                seen_known.add(key)
            else:
                new.append((location, severity, message))
        coverage = coverage_of(args.work, module, os.path.join(args.work, "graphs", module), root)
        if coverage is None:
            missing.append(module)
            continue
        total, implicit, undocumented = coverage
        rows.append((module, total, total - len(undocumented), implicit))
        all_undocumented += undocumented

    if all_undocumented:
        print("== public symbols without documentation (%d)" % len(all_undocumented))
        for where, symbol, kind in all_undocumented:
            print("  %s  %s (%s)" % (where, symbol, kind.lower()))
        print()

    print("== documentation coverage (public symbols with an abstract; declarations the compiler made are left out)")
    print("  %-14s %9s %11s %8s %9s" % ("module", "symbols", "documented", "percent", "left out"))
    total = documented = left_out = 0
    for module, count, good, implicit in rows:
        total += count
        documented += good
        left_out += implicit
        print("  %-14s %9d %11d %7.1f%% %9d" % (module, count, good, 100.0 * good / count if count else 100.0, implicit))
    print(
        "  %-14s %9d %11d %7.1f%% %9d"
        % ("all", total, documented, 100.0 * documented / total if total else 100.0, left_out)
    )
    print()

    failed = False
    if missing:
        print("docs: FAILED: docc wrote no diagnostics or coverage for %s" % ", ".join(missing), file=sys.stderr)
        failed = True
    known_now = sorted((number, key) for key, number in known if key in seen_known)
    if known_now:
        print("docs: %d known warnings (%s; fix them and delete their lines):" % (len(known_now), args.known))
        for _, key in known_now:
            print("  " + key)
    stale = sorted((number, key) for key, number in known if key not in seen_known)
    if stale:
        print("docs: FAILED: known warnings that no longer occur; delete them from %s:" % args.known, file=sys.stderr)
        for number, key in stale:
            print("  %s:%d: %s" % (args.known, number, key), file=sys.stderr)
        failed = True
    if new:
        print("docs: FAILED: %d docc warnings:" % len(new), file=sys.stderr)
        for location, severity, message in new:
            print("  %s: %s: %s" % (location, severity, message), file=sys.stderr)
        failed = True
    if args.require_full_coverage and all_undocumented:
        print(
            "docs: FAILED: %d public symbols have no documentation (listed above)" % len(all_undocumented),
            file=sys.stderr,
        )
        failed = True
    # One line for scripts/test's summary.
    print(
        "docs: %d modules, %d of %d public symbols documented, %d new warnings"
        % (len(rows), documented, total, len(new))
    )
    return 1 if failed else 0


# ---------------------------------------------------------------------------
# index


def index(site, modules):
    """The site's front page: DocC's own app starts at documentation/, so the
    root gets a plain page linking the modules (no script, no styles)."""
    links = "\n".join(
        '<li><a href="documentation/%s/">%s</a></li>' % (html.escape(m.lower()), html.escape(m)) for m in modules
    )
    page = (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>napkin documentation</title>\n</head>\n<body>\n"
        "<h1>napkin documentation</h1>\n<ul>\n%s\n</ul>\n"
        '<p><a href="documentation/">All modules</a></p>\n</body>\n</html>\n' % links
    )
    with open(os.path.join(site, "index.html"), "w") as f:
        f.write(page)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("filter")
    p.add_argument("raw")
    p.add_argument("module")
    p.add_argument("out")
    p = commands.add_parser("report")
    p.add_argument("--work", required=True)
    p.add_argument("--known", required=True)
    p.add_argument("--require-full-coverage", action="store_true")
    p.add_argument("modules", nargs="+")
    p = commands.add_parser("index")
    p.add_argument("site")
    p.add_argument("modules", nargs="+")
    args = parser.parse_args()
    if args.command == "filter":
        filter_graphs(args.raw, args.module, args.out)
    elif args.command == "report":
        sys.exit(report(args))
    else:
        index(args.site, args.modules)


if __name__ == "__main__":
    main()
