-- jax-lsp: JAX/Pallas platform-consistency checks for Python.
--
-- Neovim 0.11+ config (`:help lsp-config`). Put this folder on 'runtimepath' (or copy this file
-- to ~/.config/nvim/lsp/jax_lsp.lua) and call `vim.lsp.enable("jax_lsp")`. It runs next to
-- pyright/basedpyright/ruff: each server attaches to Python buffers on its own.
--
-- The server binary: `.venv/bin/jax-lsp` in the project root when it exists, else
-- `venv/bin/jax-lsp` (`Scripts\jax-lsp.exe` on Windows), else `jax-lsp` on PATH. The project root
-- is the folder of the nearest `root_markers` file. Another binary:
--
--   vim.lsp.config("jax_lsp", { cmd = { "/path/to/jax-lsp", "server" } })
--
-- Settings (all optional; `nil`: `[tool.jax-lsp]` in pyproject.toml applies):
--
--   vim.lsp.config("jax_lsp", {
--     settings = {
--       ["jax-lsp"] = {
--         select = { "JP001", "JP002" },   -- only these codes or prefixes
--         ignore = { "JP005" },            -- never these
--         targetPlatforms = { "tpu" },     -- where the code runs: cpu, cuda, rocm, tpu, oneapi
--       },
--     },
--   })

local root_markers = { "pyproject.toml", "setup.py", "setup.cfg", ".git" }

--- The jax-lsp of the project's own environment (`.venv`, then `venv`, in `root`), or nil.
---@param root string?
---@return string?
local function venv_binary(root)
  if not root or root == "" then
    return nil
  end
  local windows = vim.fn.has("win32") == 1
  for _, venv in ipairs({ ".venv", "venv" }) do
    local bin = windows and ("%s/%s/Scripts/jax-lsp.exe"):format(root, venv) or ("%s/%s/bin/jax-lsp"):format(root, venv)
    if vim.fn.executable(bin) == 1 then
      return bin
    end
  end
  return nil
end

---@type vim.lsp.Config
return {
  -- A function so that the binary is picked per project root when a client starts.
  ---@param dispatchers vim.lsp.rpc.Dispatchers
  ---@param config? vim.lsp.ClientConfig
  cmd = function(dispatchers, config)
    -- Neovim 0.11.0/0.11.1 pass only `dispatchers`: then the root is looked up from the buffer
    -- being attached (the current one) the same way.
    local root = config and config.root_dir or vim.fs.root(0, root_markers)
    local bin = venv_binary(root) or "jax-lsp"
    -- With a function `cmd` Neovim leaves these to us.
    return vim.lsp.rpc.start({ bin, "server" }, dispatchers, {
      cwd = config and config.cmd_cwd,
      env = config and config.cmd_env,
      detached = config and config.detached,
    })
  end,
  filetypes = { "python" },
  root_markers = root_markers,
}
