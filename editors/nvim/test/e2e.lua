-- End-to-end test of jax-lsp in a real (headless) Neovim, through editors/nvim/lsp/jax_lsp.lua.
--
--   nvim --clean --headless -l e2e.lua <editors/nvim> <jax-lsp binary> <workspace> <mode>
--
-- <workspace> is a scratch copy of test/fixtures (run.sh makes it). <mode>:
--   default   Neovim's own position encodings (the server picks utf-8); settings via `settings`
--   utf-16    the client offers only utf-16; settings via `init_options`
-- Prints one line per check and `mode <mode>: passed N, failed M`; exits 1 on any failure.

local nvim_dir, bin, workspace, mode = arg[1], arg[2], arg[3], arg[4] or "default"
assert(nvim_dir and bin and workspace, "usage: e2e.lua <editors/nvim> <jax-lsp> <workspace> [mode]")

local TIMEOUT = tonumber(os.getenv("JAX_LSP_TEST_TIMEOUT_MS") or "") or 15000
local passed, failed = 0, 0

local function say(line)
  io.stdout:write(line, "\n")
  io.stdout:flush()
end

local function test(name, fn)
  local ok, err = xpcall(fn, debug.traceback)
  if ok then
    passed = passed + 1
    say(("ok   [%s] %s"):format(mode, name))
  else
    failed = failed + 1
    say(("FAIL [%s] %s\n%s"):format(mode, name, tostring(err):gsub("^", "    "):gsub("\n", "\n    ")))
  end
end

local function check(cond, msg, ...)
  if not cond then
    error(select("#", ...) > 0 and msg:format(...) or msg, 2)
  end
  return cond
end

local function eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    error(("%s: expected %s, got %s"):format(what or "value", vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

--- Waits until `cond()` returns a truthy value and returns it; fails after TIMEOUT ms.
local function wait_for(what, cond, describe_state)
  local value
  local ok = vim.wait(TIMEOUT, function()
    value = cond()
    return value ~= nil and value ~= false
  end, 20)
  if not ok then
    local state = describe_state and ("\nstate: " .. describe_state()) or ""
    error(("timed out after %d ms waiting for %s%s"):format(TIMEOUT, what, state), 2)
  end
  return value
end

-- Nothing may prompt: a prompt in headless Neovim would hang the test.
vim.ui.select = function(items, opts, _)
  local titles = vim.tbl_map(function(it)
    return opts and opts.format_item and opts.format_item(it) or vim.inspect(it)
  end, items)
  error("unexpected vim.ui.select prompt: " .. vim.inspect(titles))
end
vim.ui.input = function()
  error("unexpected vim.ui.input prompt")
end

-- Error and warning popups (window/showMessage) from the server: there should be none.
local server_errors = {}
vim.lsp.handlers["window/showMessage"] = function(err, result, ctx, config)
  if result and result.type and result.type <= 2 then
    server_errors[#server_errors + 1] = result.message
  end
  -- Not passed on to vim.notify: in headless mode it would print without a line end.
  say(("     [%s] server message (type %s): %s"):format(mode, result and result.type, result and result.message))
end

------------------------------------------------------------------------------------------------
-- Configure exactly as the README tells users to.

vim.opt.runtimepath:prepend(nvim_dir)
vim.lsp.log.set_level(os.getenv("JAX_LSP_TEST_LSP_LOG") or "warn")

local initial = { ["jax-lsp"] = { ignore = { "JP005" } } }
local overrides = { cmd = { bin, "server" } }
if mode == "utf-16" then
  overrides.capabilities = { general = { positionEncodings = { "utf-16" } } }
  overrides.init_options = initial
else
  overrides.settings = initial
end
vim.lsp.config("jax_lsp", overrides)
vim.lsp.enable("jax_lsp")

local expected_encoding = mode == "utf-16" and "utf-16" or "utf-8"

------------------------------------------------------------------------------------------------
-- Helpers over buffers, clients and diagnostics.

local function open(name)
  vim.cmd.edit(vim.fn.fnameescape(workspace .. "/" .. name))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.bo[buf].filetype == "python", "filetype of %s is %q", name, vim.bo[buf].filetype)
  return buf
end

local function client_for(buf)
  return wait_for("jax_lsp to attach to buffer " .. buf, function()
    local c = vim.lsp.get_clients({ bufnr = buf, name = "jax_lsp" })[1]
    return c and c.initialized and c or nil
  end)
end

local function diags(buf, code)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if code == nil or d.code == code then
      out[#out + 1] = d
    end
  end
  table.sort(out, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return out
end

local function show(buf)
  return function()
    return vim.inspect(vim.tbl_map(function(d)
      return { code = d.code, lnum = d.lnum, col = d.col, end_col = d.end_col, message = d.message }
    end, vim.diagnostic.get(buf)))
  end
end

local function line(buf, lnum)
  return vim.api.nvim_buf_get_lines(buf, lnum, lnum + 1, true)[1]
end

--- The text a diagnostic's range covers (single-line ranges).
local function covered(buf, d)
  eq(d.end_lnum, d.lnum, "diagnostic is on one line")
  return line(buf, d.lnum):sub(d.col + 1, d.end_col)
end

--- Waits for exactly one `code` diagnostic on 0-based line `lnum` whose range covers `text`.
local function wait_diag(buf, code, lnum, text)
  return wait_for(("%s on line %d covering %q"):format(code, lnum + 1, text), function()
    local found = diags(buf, code)
    if #found == 1 and found[1].lnum == lnum and covered(buf, found[1]) == text then
      return found[1]
    end
  end, show(buf))
end

local function wait_no_diag(buf, code)
  wait_for("no " .. code .. " diagnostic", function()
    return #diags(buf, code) == 0
  end, show(buf))
end

local function hover_text(buf, client, lnum, col)
  vim.api.nvim_win_set_cursor(0, { lnum + 1, col })
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local resp = client:request_sync("textDocument/hover", params, TIMEOUT, buf)
  check(resp, "no hover response (timeout)")
  check(not resp.err, "hover error: %s", vim.inspect(resp.err))
  check(resp.result, "hover returned null at %d:%d", lnum + 1, col)
  local contents = resp.result.contents
  if type(contents) == "table" and contents.value then
    return contents.value, resp.result
  elseif type(contents) == "string" then
    return contents, resp.result
  end
  return table.concat(vim.tbl_map(function(c)
    return type(c) == "string" and c or c.value
  end, contents), "\n"), resp.result
end

--- The code actions the server offers at the cursor, with the cursor line's diagnostics.
local function code_actions(buf, client, d, only)
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  local params = vim.lsp.util.make_range_params(0, client.offset_encoding)
  params.context = {
    diagnostics = vim.tbl_map(function(x)
      return x.user_data.lsp
    end, vim.diagnostic.get(buf, { lnum = d.lnum })),
    only = only,
    triggerKind = 1,
  }
  local resp = client:request_sync("textDocument/codeAction", params, TIMEOUT, buf)
  check(resp and not resp.err, "codeAction failed: %s", vim.inspect(resp))
  return resp.result or {}
end

--- Applies the preferred quick fix the way a user does (`vim.lsp.buf.code_action` with
--- `apply = true`), and waits for the buffer to change.
local function apply_preferred(buf, d)
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  local tick = vim.b[buf].changedtick
  vim.lsp.buf.code_action({
    apply = true,
    context = { only = { "quickfix" } },
    filter = function(action)
      return action.isPreferred == true
    end,
  })
  wait_for("the preferred code action to edit the buffer", function()
    return vim.b[buf].changedtick ~= tick
  end)
end

------------------------------------------------------------------------------------------------
-- The checks.

local JP003_MSG = "Passing lowering_platforms via jax.export or jit(f).trace(*args).lower(lowering_platforms=...) "
  .. "is required when only AbstractMesh exists in a jitted computation. Got context mesh: Mesh()"
local JP003_LINE = "lowered = f.trace(jax.ShapeDtypeStruct((64, 32), jnp.float32)).lower()"

test("the config from editors/nvim/lsp/jax_lsp.lua is found and merged", function()
  local config = vim.lsp.config.jax_lsp
  check(config, "vim.lsp.config.jax_lsp is nil: lsp/jax_lsp.lua not on 'runtimepath'")
  eq(config.cmd, { bin, "server" }, "cmd (overridden)")
  eq(config.filetypes, { "python" }, "filetypes")
  eq(config.root_markers, { "pyproject.toml", "setup.py", "setup.cfg", ".git" }, "root_markers")
  -- The shipped default, read straight from the file: a function that picks the binary per root
  -- (checked at the end, "the shipped cmd ...").
  local shipped = dofile(nvim_dir .. "/lsp/jax_lsp.lua")
  eq(type(shipped.cmd), "function", "shipped cmd")
end)

local mixed, client
test("starts on a Python file, rooted at pyproject.toml, negotiating " .. expected_encoding, function()
  mixed = open("mixed.py")
  client = client_for(mixed)
  eq(client.root_dir, workspace, "root_dir")
  eq(client.offset_encoding, expected_encoding, "offset encoding")
  eq(client.server_info and client.server_info.name, "jax-lsp", "serverInfo.name")
end)
if not client then
  say(("mode %s: passed %d, failed %d"):format(mode, passed, failed + 1))
  os.exit(1)
end

test("startup settings apply (ignore JP005): JP003 reported, JP005 not", function()
  local d = wait_diag(mixed, "JP003", 6, "lower")
  eq(d.message:sub(1, #JP003_MSG), JP003_MSG, "message")
  eq(d.severity, vim.diagnostic.severity.ERROR, "severity")
  eq(#diags(mixed, "JP005"), 0, "JP005 diagnostics while ignored")
end)

test("didChangeConfiguration applies live (ignore cleared, targetPlatforms = tpu)", function()
  client.settings = { ["jax-lsp"] = { ignore = {}, targetPlatforms = { "tpu" } } }
  client:notify("workspace/didChangeConfiguration", { settings = client.settings })
  local d = wait_diag(mixed, "JP005", 13, '"tpu"')
  check(d.message:find('lowering_platforms="tpu" is a string', 1, true), "message: %s", d.message)
  -- targetPlatforms drives the JP003 fix.
  local jp003 = wait_diag(mixed, "JP003", 6, "lower")
  local preferred = vim.tbl_filter(function(a)
    return a.isPreferred
  end, code_actions(mixed, client, jp003, { "quickfix" }))
  eq(#preferred, 1, "preferred actions")
  eq(preferred[1].title, 'jax-lsp (JP003): Insert lowering_platforms=("tpu",)', "preferred title")
end)

test("source.fixAll.jax-lsp fixes both findings", function()
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  local tick = vim.b[mixed].changedtick
  vim.lsp.buf.code_action({ apply = true, context = { only = { "source.fixAll.jax-lsp" } } })
  wait_for("fix-all to edit the buffer", function()
    return vim.b[mixed].changedtick ~= tick
  end)
  eq(line(mixed, 6), 'lowered = f.trace(jax.ShapeDtypeStruct((64, 32), jnp.float32)).lower(lowering_platforms=("tpu",))', "line 7")
  eq(line(mixed, 13), 'exported = jax.jit(g).trace(1).lower(lowering_platforms=("tpu",))', "line 14")
  wait_no_diag(mixed, "JP003")
  wait_no_diag(mixed, "JP005")
end)

test("settings reset with an empty Lua table (sent as `[]`) is accepted", function()
  -- `{}` is what users write; Neovim encodes an empty Lua table as a JSON array.
  client.settings = { ["jax-lsp"] = {} }
  client:notify("workspace/didChangeConfiguration", { settings = client.settings })
  vim.wait(500)
  local shown = vim.deepcopy(server_errors)
  for i = #server_errors, 1, -1 do
    server_errors[i] = nil -- reported here, not again at the end
  end
  eq(shown, {}, "error/warning messages shown by the server")
  -- The effect shows in the next file's preferred fix: cpu again (the default offer).
end)

local jp003
test("JP003: code, range, message", function()
  jp003 = open("jp003.py")
  check(vim.lsp.buf_is_attached(jp003, client.id), "the same client attaches to a second file")
  local d = wait_diag(jp003, "JP003", 5, "lower")
  eq(d.message:sub(1, #JP003_MSG), JP003_MSG, "message")
  eq(d.source, "jax-lsp", "source")
  eq({ d.lnum, d.col, d.end_lnum, d.end_col }, { 5, 63, 5, 68 }, "range (0-based, bytes)")
  eq(#diags(jp003), 1, "diagnostics in jp003.py")
end)

test("JP003: hover explains the rule", function()
  local d = wait_diag(jp003, "JP003", 5, "lower")
  local text = hover_text(jp003, client, d.lnum, d.col + 2)
  for _, want in ipairs({ "JP003", "AbstractMesh", "lowering_platforms", "no device" }) do
    check(text:find(want, 1, true), "hover text lacks %q:\n%s", want, text)
  end
  -- And the user's path: K opens a floating window with that text.
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col + 2 })
  vim.lsp.buf.hover()
  local float = wait_for("the hover window", function()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(win).relative ~= "" then
        return win
      end
    end
  end)
  local shown = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false), "\n")
  check(shown:find("AbstractMesh", 1, true), "hover window text:\n%s", shown)
  vim.api.nvim_win_close(float, true)
end)

test("JP003: code actions offer the fixes, cpu preferred, and a noqa action", function()
  local d = wait_diag(jp003, "JP003", 5, "lower")
  local titles, preferred = {}, {}
  for _, a in ipairs(code_actions(jp003, client, d, { "quickfix" })) do
    titles[#titles + 1] = a.title
    if a.isPreferred then
      preferred[#preferred + 1] = a.title
    end
    eq(a.kind, "quickfix", "kind of " .. a.title)
  end
  eq(preferred, { 'jax-lsp (JP003): Insert lowering_platforms=("cpu",)' }, "preferred")
  check(vim.list_contains(titles, 'jax-lsp (JP003): Insert lowering_platforms=("tpu",)'), "titles: %s", vim.inspect(titles))
  check(vim.list_contains(titles, "jax-lsp (JP003): Disable for this line"), "titles: %s", vim.inspect(titles))
end)

test("JP003: applying the preferred fix edits the line and clears the diagnostic", function()
  local d = wait_diag(jp003, "JP003", 5, "lower")
  apply_preferred(jp003, d)
  eq(line(jp003, 5), JP003_LINE:gsub("%.lower%(%)$", "") .. '.lower(lowering_platforms=("cpu",))', "fixed line")
  wait_no_diag(jp003, "JP003")
end)

test("JP005: diagnostic, hover and fix", function()
  local buf = open("jp005.py")
  local d = wait_diag(buf, "JP005", 7, '"cpu"')
  eq({ d.col, d.end_col }, { 55, 60 }, "columns")
  eq(d.message, "lowering_platforms=\"cpu\" is a string, not a tuple: JAX lowers for platforms ('c', 'p', 'u')", "message")
  local text = hover_text(buf, client, d.lnum, d.col + 1)
  check(text:find("JP005", 1, true), "hover:\n%s", text)
  apply_preferred(buf, d)
  eq(line(buf, 7), 'lowered = jax.jit(f).trace(1).lower(lowering_platforms=("cpu",))', "fixed line")
  wait_no_diag(buf, "JP005")
end)

test("noqa: no diagnostic; hover on the code in the comment explains it", function()
  local buf = open("noqa.py")
  -- Something positive first, so "no diagnostic" is not just "not yet": a hover answer
  -- means the server has the document.
  local l = line(buf, 7)
  local col = l:find("JP005", 1, true) - 1
  local text = hover_text(buf, client, 7, col + 1)
  check(text:find("JP005", 1, true) and text:find("tuple", 1, true), "hover:\n%s", text)
  vim.wait(300)
  eq(#diags(buf), 0, "diagnostics under # noqa")
end)

test("multi-byte text before the finding: range still on `lower` (" .. expected_encoding .. " offsets)", function()
  local buf = open("emoji.py")
  wait_diag(buf, "JP003", 5, "lower")
  local prefix = 's = "😀日本"; '
  vim.api.nvim_buf_set_text(buf, 5, 0, 5, 0, { prefix })
  local d = wait_for("JP003 to move right by the prefix", function()
    local found = diags(buf, "JP003")
    return #found == 1 and found[1].col == 63 + #prefix and found[1] or nil
  end, show(buf))
  eq(covered(buf, d), "lower", "text under the range")
  -- The raw LSP range is in the negotiated encoding.
  local raw = d.user_data.lsp.range
  local want = vim.str_utfindex(line(buf, 5), expected_encoding, 63 + #prefix)
  eq(raw.start.character, want, "raw start.character (" .. expected_encoding .. ")")
  eq(raw["end"].character - raw.start.character, 5, "raw range length")
  if expected_encoding == "utf-16" then
    eq(raw.start.character, 63 + 12, "utf-16: 😀 is 2 units, 日 and 本 1 each")
  else
    eq(raw.start.character, 63 + 18, "utf-8: 😀 is 4 bytes, 日 and 本 3 each")
  end
end)

test("an edit between multi-byte characters (incremental sync) keeps the range right", function()
  local buf = vim.api.nvim_get_current_buf()
  local l = line(buf, 5)
  local after_emoji = l:find("😀", 1, true) + #"😀" - 1 -- byte offset just after 😀
  vim.api.nvim_buf_set_text(buf, 5, after_emoji, 5, after_emoji, { "é€" })
  local shifted = 63 + #'s = "😀日本"; ' + #"é€"
  local d = wait_for("JP003 after the second edit", function()
    local found = diags(buf, "JP003")
    return #found == 1 and found[1].col == shifted and found[1] or nil
  end, show(buf))
  eq(covered(buf, d), "lower", "text under the range")
  local want = 's = "😀é€日本"; '
  eq(line(buf, 5):sub(1, #want), want, "the edit landed where it was made")
end)

test("the fix on the multi-byte line inserts at the right place", function()
  local buf = vim.api.nvim_get_current_buf()
  local d = wait_diag(buf, "JP003", 5, "lower")
  apply_preferred(buf, d)
  eq(line(buf, 5), 's = "😀é€日本"; ' .. JP003_LINE:gsub("%.lower%(%)$", "") .. '.lower(lowering_platforms=("cpu",))', "fixed line")
  wait_no_diag(buf, "JP003")
end)

local ruff = os.getenv("JAX_LSP_TEST_RUFF")
if ruff and ruff ~= "" then
  test("side by side with ruff: both attach, each reports and fixes its own findings", function()
    vim.lsp.config("ruff", {
      cmd = { ruff, "server" },
      filetypes = { "python" },
      root_markers = { "pyproject.toml", ".git" },
    })
    vim.lsp.enable("ruff")
    local buf = open("coexist.py")
    client_for(buf)
    wait_for("ruff to attach", function()
      return vim.lsp.get_clients({ bufnr = buf, name = "ruff" })[1]
    end)
    local d = wait_diag(buf, "JP005", 4, '"cpu"')
    eq(d.source, "jax-lsp", "source of JP005")
    local f401 = wait_for("ruff's F401 on `import os`", function()
      return diags(buf, "F401")[1]
    end, show(buf))
    eq(f401.lnum, 0, "F401 line")
    -- The preferred quick fix at the JP005 finding is jax-lsp's, and only it is applied.
    apply_preferred(buf, d)
    eq(line(buf, 4), 'lowered = jax.jit(lambda x: x).trace(1).lower(lowering_platforms=("cpu",))', "fixed line")
    eq(line(buf, 0), "import os", "ruff's finding left alone")
    wait_no_diag(buf, "JP005")
    check(#diags(buf, "F401") == 1, "ruff's diagnostic is still there: %s", show(buf)())
    vim.lsp.enable("ruff", false)
  end)
else
  say(("skip [%s] side by side with ruff (JAX_LSP_TEST_RUFF not set)"):format(mode))
end

test("the server showed no error or warning messages", function()
  eq(server_errors, {}, "window/showMessage errors and warnings")
end)

test("shutdown is clean", function()
  local id = client.id
  client:stop()
  wait_for("the client to stop", function()
    return vim.lsp.get_client_by_id(id) == nil
  end)
end)

------------------------------------------------------------------------------------------------
-- The shipped `cmd`: the project's .venv/bin/jax-lsp, else venv/bin/jax-lsp, else jax-lsp on PATH.
-- Each project root gets stand-in binaries (shell scripts that record that they were started, in
-- a marker file, and exec the real server); a stand-in is also first on PATH.

if mode == "default" then
  local base = assert(vim.uv.fs_realpath(vim.fn.fnamemodify(workspace, ":h"))) .. "/venv-projects"
  local markers = base .. "/markers"
  vim.fn.mkdir(markers, "p")
  local jp003_text = vim.fn.readfile(workspace .. "/jp003.py")

  --- Writes an executable stand-in at `path` that touches markers/<label>, then runs the server.
  local function stand_in(path, label)
    vim.fn.mkdir(vim.fn.fnamemodify(path, ":h"), "p")
    vim.fn.writefile({
      "#!/bin/sh",
      ": > " .. vim.fn.shellescape(markers .. "/" .. label),
      "exec " .. vim.fn.shellescape(bin) .. ' "$@"',
    }, path)
    check(vim.fn.setfperm(path, "rwxr-xr-x") == 1, "chmod %s", path)
  end

  local function project(name)
    local dir = base .. "/" .. name
    vim.fn.mkdir(dir, "p")
    vim.fn.writefile({ "[project]", 'name = "' .. name .. '"', 'version = "0"' }, dir .. "/pyproject.toml")
    vim.fn.writefile(jp003_text, dir .. "/jp003.py")
    return dir
  end

  local function started()
    return vim.fn.sort(vim.fn.readdir(markers))
  end

  local with_dotvenv, with_venv, plain
  test("project roots with stand-ins in .venv/bin, venv/bin and on PATH", function()
    with_dotvenv = project("with-dotvenv")
    stand_in(with_dotvenv .. "/.venv/bin/jax-lsp", "dotvenv")
    stand_in(with_dotvenv .. "/venv/bin/jax-lsp", "dotvenv-venv") -- .venv comes first
    with_venv = project("with-venv")
    stand_in(with_venv .. "/venv/bin/jax-lsp", "venv")
    plain = project("plain")
    stand_in(base .. "/on-path/jax-lsp", "path")
    vim.env.PATH = base .. "/on-path:" .. vim.env.PATH
    eq(vim.fn.exepath("jax-lsp"), base .. "/on-path/jax-lsp", "jax-lsp on PATH")
    -- Back to the shipped cmd (the checks above override it with the binary under test).
    vim.lsp.config("jax_lsp", { cmd = dofile(nvim_dir .. "/lsp/jax_lsp.lua").cmd })
    eq(type(vim.lsp.config.jax_lsp.cmd), "function", "cmd after the reset")
  end)

  --- Opens jp003.py of `dir`; checks the client is rooted there, `marker` (only) was started,
  --- and its diagnostics arrive; stops the client.
  local function check_project(dir, marker)
    check(dir, "the project roots were not made")
    for _, name in ipairs(started()) do
      vim.fn.delete(markers .. "/" .. name)
    end
    vim.cmd.edit(vim.fn.fnameescape(dir .. "/jp003.py"))
    local buf = vim.api.nvim_get_current_buf()
    local c = client_for(buf)
    eq(c.root_dir, dir, "root_dir")
    eq(started(), { marker }, "stand-ins started")
    local d = wait_diag(buf, "JP003", 5, "lower")
    eq(d.source, "jax-lsp", "source")
    local id = c.id
    c:stop()
    wait_for("the client to stop", function()
      return vim.lsp.get_client_by_id(id) == nil
    end)
  end

  test("the shipped cmd starts the project's .venv/bin/jax-lsp (before venv and PATH)", function()
    check_project(with_dotvenv, "dotvenv")
  end)

  test("the shipped cmd starts venv/bin/jax-lsp when there is no .venv (before PATH)", function()
    check_project(with_venv, "venv")
  end)

  test("the shipped cmd starts jax-lsp from PATH when the project has no venv", function()
    check_project(plain, "path")
  end)
end

say(("mode %s: passed %d, failed %d"):format(mode, passed, failed))
os.exit(failed == 0 and 0 or 1)
