# SPDX-License-Identifier: MIT
# Writes every ```swift block of the Markdown files given as a Swift file to type-check, wrapped as
# its directive says (see README.md in this folder). Variables: out (the folder written to).
# Writes out/main/, out/manifest/ and out/examples/ (one file per block, named N.swift), out/map
# (N.swift TAB document) and out/skipped (document:line TAB reason). A bad directive exits 2.

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }

function fail(message) {
    printf "check-docs: %s:%d: %s\n", FILENAME, FNR, message > "/dev/stderr"
    failed = 1
    exit 2
}

# The modules a block of this document imports when it imports none itself.
function default_imports(doc) {
    if (doc ~ /PusherChannelsServer\/Docs\.docc/) return "PusherChannelsServer"
    if (doc ~ /PusherChannelsTesting\/Docs\.docc/) return "PusherChannels PusherChannelsTesting Testing"
    return "PusherChannels"
}

# Whether every line at column 0 starts a declaration (or closes one): such a block stands at
# file scope; any other is the body of a function.
function is_declarations(    i, line) {
    for (i = 1; i <= count; i++) {
        line = lines[i]
        if (line ~ /^[ \t]/ || line ~ /^$/) continue
        if (line ~ /^(import |@|func |struct |enum |class |final |actor |extension |protocol |typealias |public |private |fileprivate |internal |\/\/|\}|\)|\])/) continue
        return 0
    }
    return 1
}

function begin_block() {
    inblock = 1
    count = 0
    start = FNR + 1
    directive = pending
    pending = ""
}

function end_block(    d, reason, words, n, i, mode, wrapper, extra, own, imports, pass, file, path, j, head, tail, code) {
    inblock = 0
    d = directive
    if (d ~ /^skip:/) {
        reason = trim(substr(d, 6))
        if (reason == "") fail("a skip needs its reason: <!-- swift-check: skip: why -->")
        printf "%s:%d\t%s\n", FILENAME, start, reason >> (out "/skipped")
        return
    }
    wrapper = ""
    extra = ""
    n = split(d, words, /[ ,]+/)
    mode = ""
    for (i = 1; i <= n; i++) {
        if (words[i] == "") continue
        if (words[i] == "imports") { mode = "imports"; continue }
        if (mode == "imports") { extra = extra " " words[i]; continue }
        if (wrapper != "") fail("one wrapper per block: " d)
        wrapper = words[i]
        if (wrapper !~ /^(function|file|route|package|target-dependency|targets)$/) fail("unknown wrapper '" wrapper "'")
    }
    if (wrapper == "") wrapper = is_declarations() ? "file" : "function"

    # The block's own imports go to the top of the file (their lines stay, blank).
    own = ""
    for (i = 1; i <= count; i++) {
        if (lines[i] ~ /^import [A-Za-z_]+$/) {
            own = own " " substr(lines[i], 8)
            lines[i] = ""
        }
    }
    # A block's own imports, plus the directive's; a block without any: the directive's, else
    # its document's.
    imports = own != "" ? own extra : (extra != "" ? extra : default_imports(FILENAME))

    if (wrapper ~ /^(package|target-dependency|targets)$/) {
        pass = "manifest"
        imports = "@preconcurrency PackageDescription"
    } else if (wrapper == "route" || imports ~ /(^| )(Hummingbird|HummingbirdTesting|ChatApp)( |$)/) {
        pass = "examples"
    } else {
        pass = "main"
    }

    if (wrapper == "function") { head = "private func docBlock() async throws {"; tail = "}" }
    else if (wrapper == "file") { head = ""; tail = "" }
    else if (wrapper == "route") { head = "private func docBlock() { router.post(\"docs\") { request, context -> HTTPResponse.Status in"; tail = "return .noContent } }" }
    else if (wrapper == "package") { head = "private func docBlock() { _ = Package(name: \"MyServer\","; tail = ") }" }
    else if (wrapper == "target-dependency") { head = "private func docBlock() { let _: Target.Dependency ="; tail = "}" }
    else if (wrapper == "targets") { head = "private func docBlock() { let _: [Target] = ["; tail = "] }" }

    blocks++
    file = blocks ".swift"
    path = out "/" pass "/" file
    printf "%s\t%s\n", pass "/" file, FILENAME >> (out "/map")
    # Imports, then blank lines, then the head on the line before the block's first: an error's
    # line in this file is its line in the document.
    n = split(trim(imports), words, / +/)
    j = 0
    for (i = 1; i <= n; i++) {
        if (words[i] == "@preconcurrency") { printf "@preconcurrency " > path; continue }
        print "import " words[i] > path; j++
    }
    while (j < start - 2) { print "" > path; j++ }
    print head > path
    for (i = 1; i <= count; i++) {
        code = lines[i]
        # `{ … }` stands for code the reader writes: an empty body here.
        gsub(/\{ … \}/, "{ }", code)
        print code > path
    }
    print tail > path
    close(path)
}

FNR == 1 { pending = ""; inblock = 0 }

inblock && /^```[ \t]*$/ { end_block(); next }
inblock { lines[++count] = $0; next }
/^```swift[ \t]*$/ { begin_block(); next }
/^<!-- swift-check:.*-->[ \t]*$/ {
    pending = $0
    sub(/^<!-- swift-check:[ \t]*/, "", pending)
    sub(/[ \t]*-->[ \t]*$/, "", pending)
    next
}
/^[ \t]*$/ { next }
{ pending = "" }

END {
    if (failed) exit 2
    if (inblock) { FNR = start; fail("a block that never ends") }
    printf "%d\n", blocks > (out "/count")
}
