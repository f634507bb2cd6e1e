-- jax-lsp: JAX/Pallas platform-consistency checks for Python.
--
-- Neovim 0.11+ config (`:help lsp-config`). Put this folder on 'runtimepath' (or copy this file
-- to ~/.config/nvim/lsp/jax_lsp.lua) and call `vim.lsp.enable("jax_lsp")`. It runs next to
-- pyright/basedpyright/ruff: each server attaches to Python buffers on its own.
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

---@type vim.lsp.Config
return {
  cmd = { "jax-lsp", "server" },
  filetypes = { "python" },
  root_markers = { "pyproject.toml", "setup.py", "setup.cfg", ".git" },
}
