;;; e2e.el --- End-to-end test of jax-lsp in a real Emacs with eglot  -*- lexical-binding: t -*-

;; emacs --batch -Q -l editors/emacs/test/e2e.el
;;
;; Environment:
;;   JAX_LSP_BIN              the jax-lsp binary (required)
;;   JAX_LSP_TEST_WORKSPACE   a scratch directory to copy the fixtures into (default: a temp dir,
;;                            deleted at the end)
;;   JAX_LSP_TEST_EVENTS_LOG  write eglot's events buffer (every JSON-RPC message) to this file
;;   JAX_LSP_TEST_TIMEOUT     seconds to wait for each thing (default 5; all of it takes ~2 s)
;;   JAX_LSP_TEST_TOTAL       seconds for the whole run: past them every wait fails at once
;;                            (default 90), so a server that stopped answering ends the run soon
;;   JAX_LSP_TEST_EXIT_GRACE  seconds the server gets to exit after `exit' before eglot kills it
;;                            (default 2; 0 is eglot 1.9's own behaviour: killed at once)
;;
;; Written for Emacs 28 with eglot 1.9 from Debian (elpa-eglot, installed under
;; /usr/share/emacs/site-lisp/elpa, which `-Q' leaves out of `load-path': it is added to
;; `package-directory-list' below); it uses a few eglot 1.9 internals (eglot--*, jsonrpc--process)
;; and has not been tried with newer eglot.  The fixtures are Neovim's
;; (editors/nvim/test/fixtures).  Each check prints `PASS name' or `FAIL name: why'; the last line
;; is `N passed, N failed'; exits 1 on any failure, 2 if eglot or the binary is missing.
;;
;; Batch Emacs has no command loop, so the test does by hand what the loop would: it runs
;; `post-command-hook' where a command would end and the idle timers where a user would pause
;; (eglot sends didChange, and flymake restarts, from idle timers).  Nothing may prompt: every
;; prompt fails the check it happens in, except the code action menu, which is answered with its
;; default (the preferred fix), as a user pressing RET does.

(require 'cl-lib)
(require 'subr-x)

;;;; Output and checks

(defvar e2e-passed 0)
(defvar e2e-failed 0)
(defun e2e-env-seconds (name default)
  (let ((s (getenv name)))
    (if (and s (> (string-to-number s) 0)) (string-to-number s) default)))
(defvar e2e-timeout (e2e-env-seconds "JAX_LSP_TEST_TIMEOUT" 5))
(defvar e2e-deadline (+ (float-time) (e2e-env-seconds "JAX_LSP_TEST_TOTAL" 90)))

(defun e2e-say (fmt &rest args)
  "Print a line to stdout (`message' would go to stderr)."
  (princ (concat (apply #'format fmt args) "\n")))

(define-error 'e2e-failure "check failed")

(defun e2e-fail (fmt &rest args)
  (signal 'e2e-failure (list (apply #'format fmt args))))

(defmacro e2e-check (name &rest body)
  "Run BODY as the check NAME: PASS if it returns, FAIL with why if it signals."
  (declare (indent 1))
  `(condition-case err
       (progn ,@body
              (cl-incf e2e-passed)
              (e2e-say "PASS %s" ,name)
              t)
     (error
      (cl-incf e2e-failed)
      (e2e-say "FAIL %s: %s" ,name
               ;; One line per check.
               (string-replace "\n" "\\n" (if (eq (car err) 'e2e-failure)
                                                (cadr err)
                                              (error-message-string err))))
      nil)))

(defun e2e-wait (what pred &optional state)
  "Return PRED's first non-nil value; meanwhile read process output, run timers.
Fail after `e2e-timeout' seconds; STATE, a function, describes what was seen."
  (let ((deadline (min (+ (float-time) e2e-timeout) e2e-deadline))
        value)
    (while (and (not (setq value (funcall pred)))
                (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or value
        (e2e-fail "%s waiting for %s%s"
                  (if (>= (float-time) e2e-deadline)
                      "out of time for the whole run (JAX_LSP_TEST_TOTAL)"
                    (format "timed out after %ss" e2e-timeout))
                  what (if state (format " (seen: %s)" (funcall state)) "")))))

(defun e2e-pause (seconds)
  "Let SECONDS pass, reading process output."
  (let ((deadline (+ (float-time) seconds)))
    (while (< (float-time) deadline)
      (accept-process-output nil 0.05))))

(defun e2e-idle ()
  "What Emacs does when the user stops typing: run the idle timers that are due."
  (dolist (timer (copy-sequence timer-idle-list))
    (when (memq timer timer-idle-list)
      (timer-event-handler timer))))

(defun e2e-end-of-command ()
  "What the command loop does after each command."
  (run-hooks 'post-command-hook)
  (setq last-command this-command
        this-command nil))

;;;; Setup

(defvar e2e-bin (getenv "JAX_LSP_BIN"))
(defvar e2e-here (file-name-directory (or load-file-name buffer-file-name default-directory)))
(defvar e2e-fixtures (expand-file-name "../../nvim/test/fixtures/" e2e-here))
(defvar e2e-own-workspace (not (getenv "JAX_LSP_TEST_WORKSPACE")))
(defvar e2e-workspace
  (file-name-as-directory
   (file-truename
    (or (getenv "JAX_LSP_TEST_WORKSPACE") (make-temp-file "jax-lsp-emacs." t)))))

(defun e2e-give-up (why)
  (when e2e-own-workspace (delete-directory e2e-workspace t))
  (e2e-say "FAIL setup: %s" why)
  (e2e-say "0 passed, 1 failed")
  (kill-emacs 2))

(when (< emacs-major-version 28)
  (e2e-give-up (format "Emacs 28 or later is needed, this is %s" emacs-version)))
(unless (and e2e-bin (file-executable-p e2e-bin))
  (e2e-give-up (format "JAX_LSP_BIN is not an executable: %S" e2e-bin)))
(setq e2e-bin (expand-file-name e2e-bin))

;; Debian's elpa-* packages live in /usr/share/emacs/site-lisp/elpa; -Q drops site-lisp from
;; load-path, so name the directory for package.el, which then activates eglot 1.9 and the newer
;; xref/project it depends on.  Packages in ~/.emacs.d/elpa are kept out.
(require 'package)
(setq package-user-dir (expand-file-name "no-user-elpa" e2e-workspace))
(dolist (dir '("/usr/share/emacs/site-lisp/elpa" "/usr/local/share/emacs/site-lisp/elpa"))
  (when (file-directory-p dir)
    (add-to-list 'package-directory-list dir)))
(package-initialize)
(unless (require 'eglot nil t)
  (e2e-give-up "eglot is not installed (Debian/Ubuntu: apt-get install elpa-eglot)"))
(require 'flymake)

(defvar e2e-eglot-version
  (or (when-let ((desc (cadr (assq 'eglot package-alist))))
        (package-version-join (package-desc-version desc)))
      (bound-and-true-p eglot--version)
      "unknown"))

(copy-directory e2e-fixtures e2e-workspace nil nil t)

(e2e-say "== GNU Emacs %s, eglot %s (%s), jsonrpc from %s"
         emacs-version e2e-eglot-version (locate-library "eglot") (locate-library "jsonrpc"))
(e2e-say "== jax-lsp: %s; workspace %s" e2e-bin e2e-workspace)

;; The README's configuration, with the binary's full path.
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               `((python-mode python-ts-mode) . (,e2e-bin "server"))))
(setq-default eglot-workspace-configuration
              '(:jax-lsp (:targetPlatforms ["tpu"])))

;; Nothing may prompt in batch mode (it would read stdin).
(defun e2e-no-prompt (&rest args)
  (error "unexpected prompt: %S" (car args)))
(dolist (fn '(completing-read y-or-n-p yes-or-no-p read-string read-from-minibuffer))
  (advice-add fn :override #'e2e-no-prompt '((name . e2e-no-prompt))))

;; What the server sends, seen through eglot's own dispatch.
(defvar e2e-published nil "publishDiagnostics notifications, newest first: (URI . COUNT).")
(defvar e2e-server-errors nil "window/showMessage and window/logMessage errors and warnings.")
(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest params)
              (pcase (format "%s" method)
                ("textDocument/publishDiagnostics"
                 (push (cons (plist-get params :uri) (length (plist-get params :diagnostics)))
                       e2e-published))
                ((or "window/showMessage" "window/logMessage")
                 (when (<= (or (plist-get params :type) 4) 2)
                   (push (format "%s (type %s): %s" method (plist-get params :type)
                                 (plist-get params :message))
                         e2e-server-errors))))))

;; The outcome of eglot's `shutdown' request and whether it sent `exit', observed only.
(defvar e2e-shutdown-outcome nil "(:result R), (:error ERR) or nil.")
(defvar e2e-exit-sent nil)
(advice-add 'jsonrpc-request :around
            (lambda (orig conn method &rest args)
              (if (not (memq method '(:shutdown shutdown)))
                  (apply orig conn method args)
                (condition-case err
                    (let ((result (apply orig conn method args)))
                      (setq e2e-shutdown-outcome (list :result result))
                      result)
                  (error
                   (setq e2e-shutdown-outcome (list :error err))
                   (signal (car err) (cdr err)))))))
(advice-add 'jsonrpc-notify :before
            (lambda (_conn method &rest _)
              (when (memq method '(:exit exit)) (setq e2e-exit-sent t))))

;; eglot 1.9's `eglot-shutdown' sends `exit' and then at once `jsonrpc-shutdown', which kills the
;; process (delete-process, SIGKILL) without waiting for it to exit: even a server that exits
;; on `exit' is killed before it can.  To see whether jax-lsp exits by itself, the last check
;; gives it this many seconds first (nil: eglot's own behaviour, as in `eglot-reconnect').
(defvar e2e-exit-grace nil)
(advice-add 'jsonrpc-shutdown :before
            (lambda (conn &rest _)
              (when (and e2e-exit-grace (> e2e-exit-grace 0) e2e-exit-sent)
                (let ((proc (jsonrpc--process conn))
                      (deadline (+ (float-time) e2e-exit-grace)))
                  (while (and (process-live-p proc) (< (float-time) deadline))
                    (accept-process-output nil 0.05))))))

;;;; Helpers over buffers and diagnostics

(defun e2e-redisplay ()
  "What redisplay does for windows that show a new buffer (flymake starts then)."
  (dolist (window (window-list))
    (with-current-buffer (window-buffer window)
      (run-hooks 'window-configuration-change-hook))))

(defun e2e-open (name)
  "Visit NAME in the workspace, in the selected window (as C-x C-f does)."
  (setq this-command 'find-file)
  (let ((buf (find-file (expand-file-name name e2e-workspace))))
    (unless (eq major-mode 'python-mode)
      (e2e-fail "%s opened in %s, not python-mode" name major-mode))
    (e2e-end-of-command)
    (e2e-redisplay)
    buf))

(defun e2e-line (n)
  "Text of line N (1-based) of the current buffer."
  (save-excursion
    (goto-char (point-min))
    (forward-line (1- n))
    (buffer-substring-no-properties (line-beginning-position) (line-end-position))))

(defun e2e-diags (&optional code)
  "Flymake's diagnostics here, sorted: (CODE LINE TEXT-UNDER-RANGE MESSAGE).
CODE comes from the message as eglot shows it: `jax-lsp [JP005]: ...'.
Positions are those of flymake's overlays, which follow edits (a
diagnostic object keeps the positions it came with)."
  (mapcar
   #'cdr
   (sort
    (cl-loop for ov in (overlays-in (point-min) (point-max))
             for d = (overlay-get ov 'flymake-diagnostic)
             for msg = (and d (flymake-diagnostic-text d))
             for c = (and msg (string-match "\\[\\([A-Z]+[0-9]+\\)\\]" msg) (match-string 1 msg))
             when (and d (or (null code) (equal c code)))
             collect (list (overlay-start ov) c (line-number-at-pos (overlay-start ov))
                           (buffer-substring-no-properties (overlay-start ov) (overlay-end ov))
                           msg))
    (lambda (a b) (< (car a) (car b))))))

(defun e2e-diag-set ()
  "The current buffer's diagnostics without messages: ((CODE LINE TEXT) ...)."
  (mapcar (lambda (d) (seq-take d 3)) (e2e-diags)))

(defun e2e-show-diags ()
  (let ((buf (current-buffer)))
    (lambda () (with-current-buffer buf (format "%S" (e2e-diags))))))

(defun e2e-wait-diag (code line text)
  "Wait for exactly one CODE diagnostic on LINE covering TEXT; return it."
  (e2e-wait (format "%s on line %d covering %S" code line text)
            (lambda ()
              (let ((found (e2e-diags code)))
                (and (= (length found) 1)
                     (= (nth 1 (car found)) line)
                     (equal (nth 2 (car found)) text)
                     (car found))))
            (e2e-show-diags)))

(defun e2e-wait-no-diag (code)
  (e2e-wait (format "no %s diagnostic" code)
            (lambda () (null (e2e-diags code)))
            (e2e-show-diags)))

(defun e2e-goto (line text)
  "Put point on the first occurrence of TEXT on LINE, one character in."
  (goto-char (point-min))
  (forward-line (1- line))
  (unless (search-forward text (line-end-position) t)
    (e2e-fail "%S not on line %d: %S" text line (e2e-line line)))
  (goto-char (1+ (match-beginning 0))))

(defun e2e-uri ()
  (eglot--path-to-uri (buffer-file-name)))

(defun e2e-published-count (uri)
  (cl-count uri e2e-published :key #'car :test #'equal))

(defun e2e-hover-raw ()
  "The server's textDocument/hover answer at point, as a plist."
  (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover
                   (eglot--TextDocumentPositionParams) :timeout e2e-timeout))

(defun e2e-hover-eldoc ()
  "The hover text eglot gives eldoc at point: what the user reads in the echo area."
  (let (text)
    (eglot-hover-eldoc-function (lambda (info &rest _) (setq text (or info ""))))
    (e2e-wait "eglot's hover text for eldoc" (lambda () text))))

(defun e2e-hover-kind-and-value (contents)
  (cond ((stringp contents) (list "MarkedString (markdown)" contents))
        ((vectorp contents)
         (list "MarkedString[] (markdown)"
               (mapconcat (lambda (c) (if (stringp c) c (plist-get c :value))) contents "\n")))
        ((plist-get contents :kind)
         (list (plist-get contents :kind) (plist-get contents :value)))
        (t (list (format "MarkedString %s" (plist-get contents :language))
                 (plist-get contents :value)))))

(defun e2e-markup-in (text)
  "Markdown markup found in TEXT, as a list of short descriptions."
  (let (found)
    (dolist (pat '(("```" . "code fence ```")
                   ("\\*\\*[^*\n]+\\*\\*" . "**bold**")
                   ("`[^`\n]+`" . "`code`")
                   ;; A heading between blank lines (not a `# comment' in a code example).
                   ("\\(?:\\`\\|\n\n\\)#+ [^\n]*\n\n" . "# heading")
                   ("\\[[^]\n]*\\]([^)\n]*)" . "[link](url)")))
      (when (string-match (car pat) text)
        (push (format "%s (%S)" (cdr pat) (string-trim (match-string 0 text))) found)))
    (nreverse found)))

(defun e2e-events-text ()
  (let ((buf (cl-find-if (lambda (b) (string-match-p "\\`\\*EGLOT .* events\\*\\'" (buffer-name b)))
                         (buffer-list))))
    (and buf (with-current-buffer buf (buffer-substring-no-properties (point-min) (point-max))))))

(defun e2e-save-events-log ()
  (when-let ((file (getenv "JAX_LSP_TEST_EVENTS_LOG"))
             (text (e2e-events-text)))
    (with-temp-file file (insert text))))

;;;; The checks

(defconst e2e-jp005-message
  "lowering_platforms=\"cpu\" is a string, not a tuple: JAX lowers for platforms ('c', 'p', 'u')")
(defconst e2e-jp003-message
  (concat "Passing lowering_platforms via jax.export or jit(f).trace(*args).lower(lowering_platforms=...) "
          "is required when only AbstractMesh exists in a jitted computation."))

(defvar e2e-server nil)
(defvar e2e-jp005 nil)
(defvar e2e-mixed nil)

;; 1. M-x eglot on a Python file, then diagnostics.
(e2e-check "start: M-x eglot runs jax-lsp for python-mode (serverInfo jax-lsp)"
  (setq e2e-jp005 (e2e-open "jp005.py"))
  (call-interactively #'eglot)
  (setq e2e-server (e2e-wait "eglot to manage jp005.py"
                             (lambda () (and eglot--managed-mode (eglot-current-server)))))
  (let ((info (eglot--server-info e2e-server))
        (cmd (process-command (jsonrpc--process e2e-server))))
    (unless (equal (plist-get info :name) "jax-lsp")
      (e2e-fail "serverInfo: %S" info))
    (unless (equal cmd (list e2e-bin "server"))
      (e2e-fail "command: %S" cmd))))

(unless e2e-server
  (e2e-save-events-log)
  (e2e-say "%d passed, %d failed" e2e-passed e2e-failed)
  (kill-emacs 1))

(e2e-check "diagnostics: flymake shows JP005 with its message on \"cpu\" (line 8)"
  (with-current-buffer e2e-jp005
    (let ((d (e2e-wait-diag "JP005" 8 "\"cpu\"")))
      (unless (equal (nth 3 d) (concat "jax-lsp [JP005]: " e2e-jp005-message))
        (e2e-fail "message: %S" (nth 3 d)))
      (unless (= (length (e2e-diags)) 1)
        (e2e-fail "diagnostics: %S" (e2e-diags))))))

;; 2. Hover.
(e2e-check "hover: eldoc's hover text at the finding explains JP005"
  (with-current-buffer e2e-jp005
    (e2e-goto 8 "\"cpu\"")
    (let ((text (e2e-hover-eldoc)))
      (dolist (want '("JP005" "tuple"))
        (unless (string-search want text)
          (e2e-fail "no %S in the hover text: %S" want text))))))

(e2e-check "hover: plain text without markdown markup when eglot asks for plaintext"
  (with-current-buffer e2e-jp005
    (e2e-goto 8 "\"cpu\"")
    (let* ((formats (append (plist-get (plist-get (plist-get (eglot-client-capabilities e2e-server)
                                                             :textDocument)
                                                  :hover)
                                       :contentFormat)
                            nil))
           (answer (e2e-hover-raw))
           (kv (e2e-hover-kind-and-value (plist-get answer :contents)))
           (markup (e2e-markup-in (cadr kv))))
      (e2e-say "     eglot announces hover contentFormat %S (markdown-mode %s)"
               formats (if (fboundp 'gfm-view-mode) "present" "absent"))
      (cond ((member "markdown" formats)
             (e2e-say "     markdown asked for: the plain-text check does not apply"))
            ((not (equal (car kv) "plaintext"))
             (e2e-fail "asked for %S, got kind %s; markup: %s; text starts %S"
                       formats (car kv) (string-join markup ", ")
                       (truncate-string-to-width (cadr kv) 100)))
            (markup
             (e2e-fail "kind plaintext but markdown markup in it: %s" (string-join markup ", ")))))))

;; 3. Quick fix: M-x eglot-code-actions at the finding, RET on the default (the preferred fix).
;; (Not M-x eglot-code-action-quickfix: in eglot 1.9 it only returns the actions, it applies none.)
(e2e-check "quick fix: M-x eglot-code-actions, RET on the preferred fix; the line is fixed, JP005 clears"
  (with-current-buffer e2e-jp005
    (e2e-goto 8 "\"cpu\"")
    (let ((offered nil)
          (default nil)
          (before (buffer-string))
          (published (e2e-published-count (e2e-uri))))
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt collection &optional _pred _req _init _hist def &rest _)
                   (setq offered (mapcar #'car collection) default def)
                   def))
                (last-nonmenu-event ?\r))
        (call-interactively #'eglot-code-actions))
      (e2e-say "     actions offered: %S; default: %S" offered default)
      (unless (equal default "jax-lsp (JP005): Use a tuple: lowering_platforms=(\"cpu\",)")
        (e2e-fail "the default (preferred) action is %S" default))
      (when (equal (buffer-string) before)
        (e2e-fail "the buffer did not change"))
      (let ((want "lowered = jax.jit(f).trace(1).lower(lowering_platforms=(\"cpu\",))"))
        (unless (equal (e2e-line 8) want)
          (e2e-fail "line 8 is %S, want %S" (e2e-line 8) want)))
      (e2e-end-of-command)
      (e2e-idle)
      (e2e-wait "publishDiagnostics after the fix"
                (lambda () (> (e2e-published-count (e2e-uri)) published)))
      (e2e-wait-no-diag "JP005"))))

;; 4. Edits: a syntax error while typing, then undo.
(defvar e2e-mixed-original nil)
(e2e-check "README settings apply (targetPlatforms tpu): mixed.py has JP003 and JP005, tpu fix preferred"
  (setq e2e-mixed (e2e-open "mixed.py"))
  (unless (eq (eglot-current-server) e2e-server)
    (e2e-fail "mixed.py is not managed by the same server: %S" (eglot-current-server)))
  (e2e-wait "JP003 on line 7 and JP005 on line 14"
            (lambda () (equal (e2e-diag-set) '(("JP003" 7 "lower") ("JP005" 14 "\"tpu\""))))
            (e2e-show-diags))
  (let ((jp003 (car (e2e-diags "JP003"))))
    (unless (string-search e2e-jp003-message (nth 3 jp003))
      (e2e-fail "JP003 message: %S" (nth 3 jp003))))
  (setq e2e-mixed-original (e2e-diag-set))
  (e2e-goto 7 ".lower()")
  (forward-char 1)
  (let* ((actions (eglot-code-actions (point) (point) "quickfix"))
         (preferred (cl-remove-if-not (lambda (a) (eq (plist-get a :isPreferred) t)) actions)))
    (unless (equal (mapcar (lambda (a) (plist-get a :title)) preferred)
                   '("jax-lsp (JP003): Insert lowering_platforms=(\"tpu\",)"))
      (e2e-fail "preferred actions: %S (all: %S)" (mapcar (lambda (a) (plist-get a :title)) preferred)
                (mapcar (lambda (a) (plist-get a :title)) actions)))))

(defvar e2e-original-text nil)
(e2e-check "edit: a syntax error while typing: the server stays up and publishes diagnostics"
  (with-current-buffer e2e-mixed
    (setq e2e-original-text (buffer-string))
    (let ((uri (e2e-uri))
          (proc (jsonrpc--process e2e-server)))
      (let ((published (e2e-published-count uri)))
        (undo-boundary)
        (goto-char (point-min))
        (forward-line 9)                ; line 10: `def g(x):'
        (insert "def broken(:\n")
        (undo-boundary)
        (e2e-end-of-command)
        (e2e-idle)                      ; eglot sends didChange
        (e2e-wait "publishDiagnostics after the edit"
                  (lambda () (> (e2e-published-count uri) published))))
      (e2e-pause 0.3)
      (e2e-say "     diagnostics with the syntax error: %S" (e2e-diag-set))
      (unless (process-live-p proc)
        (e2e-fail "the server process is gone: %s %s" (process-status proc) (process-exit-status proc)))
      (e2e-goto 7 ".lower()")
      (let ((answer (e2e-hover-raw)))
        (unless (string-search "JP003" (cadr (e2e-hover-kind-and-value (plist-get answer :contents))))
          (e2e-fail "hover on the JP003 finding after the edit: %S" answer))))))

(e2e-check "undo: the text and the original diagnostics come back"
  (with-current-buffer e2e-mixed
    (let ((published (e2e-published-count (e2e-uri))))
      (let ((last-command nil))
        (undo))
      (e2e-end-of-command)
      (e2e-idle)
      (e2e-wait "publishDiagnostics after the undo"
                (lambda () (> (e2e-published-count (e2e-uri)) published))))
    (unless (equal (buffer-string) e2e-original-text)
      (e2e-fail "text after undo differs from the original"))
    (e2e-wait (format "diagnostics %S" e2e-mixed-original)
              (lambda () (equal (e2e-diag-set) e2e-mixed-original))
              (e2e-show-diags))))

;; Multi-byte text: eglot 1.9 counts columns in UTF-16 code units, jax-lsp negotiates utf-16.
(e2e-check "multi-byte text before the finding: the range and the fix land right (utf-16 columns)"
  (let ((buf (e2e-open "emoji.py"))
        (prefix "s = \"😀日本\"; ")
        (fixed (concat "lowered = f.trace(jax.ShapeDtypeStruct((64, 32), jnp.float32))"
                       ".lower(lowering_platforms=(\"tpu\",))")))
    (with-current-buffer buf
      (e2e-wait-diag "JP003" 6 "lower")
      (let ((published (e2e-published-count (e2e-uri))))
        (goto-char (point-min))
        (forward-line 5)
        (insert prefix)
        (e2e-end-of-command)
        (e2e-idle)
        (e2e-wait "publishDiagnostics after the edit"
                  (lambda () (> (e2e-published-count (e2e-uri)) published))))
      (e2e-wait-diag "JP003" 6 "lower")
      (e2e-goto 6 ".lower()")
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt _collection &optional _pred _req _init _hist def &rest _) def))
                (last-nonmenu-event ?\r))
        (call-interactively #'eglot-code-actions))
      (unless (equal (e2e-line 6) (concat prefix fixed))
        (e2e-fail "line 6 is %S" (e2e-line 6)))
      (e2e-end-of-command)
      (e2e-idle)
      (e2e-wait-no-diag "JP003"))))

;; 5. Save (jp005.py, changed by the quick fix).
(e2e-check "save: save-buffer writes the fix, willSave/didSave go through, nothing breaks"
  (with-current-buffer e2e-jp005
    (let ((published (e2e-published-count (e2e-uri))))
      (save-buffer)
      (when (buffer-modified-p) (e2e-fail "still modified after save-buffer"))
      (let ((on-disk (with-temp-buffer
                       (insert-file-contents (buffer-file-name e2e-jp005))
                       (buffer-string))))
        (unless (equal on-disk (buffer-string))
          (e2e-fail "the file on disk differs from the buffer")))
      (e2e-pause 0.3)
      (unless (process-live-p (jsonrpc--process e2e-server))
        (e2e-fail "the server process is gone after save"))
      (e2e-say "     publishDiagnostics after save: %d" (- (e2e-published-count (e2e-uri)) published))
      (e2e-goto 8 "\"cpu\"")
      (e2e-hover-raw)                   ; answers (no jsonrpc error)
      (when (e2e-diags)
        (e2e-fail "diagnostics after save: %S" (e2e-diags)))))
  (with-current-buffer e2e-mixed
    (unless (equal (e2e-diag-set) e2e-mixed-original)
      (e2e-fail "mixed.py diagnostics changed: %S" (e2e-diag-set)))))

(e2e-check "no error or warning messages from the server so far"
  (when e2e-server-errors
    (e2e-fail "%s" (string-join (reverse e2e-server-errors) " | "))))

;; 6. Reconnect.
(e2e-check "reconnect: eglot-reconnect starts a new server; diagnostics come back"
  (switch-to-buffer e2e-mixed)
  (e2e-redisplay)
  (with-current-buffer e2e-mixed
    (let ((old e2e-server)
          (old-proc (jsonrpc--process e2e-server)))
      (eglot-reconnect e2e-server)
      (setq e2e-server (e2e-wait "a new server managing mixed.py"
                                 (lambda () (let ((s (eglot-current-server)))
                                              (and eglot--managed-mode s (not (eq s old)) s)))))
      (e2e-say "     old server after reconnect: %s %s; shutdown answer: %S"
               (process-status old-proc) (process-exit-status old-proc) e2e-shutdown-outcome)
      (when (process-live-p old-proc)
        (e2e-fail "the old server is still running"))
      (unless (process-live-p (jsonrpc--process e2e-server))
        (e2e-fail "the new server is not running"))
      (e2e-end-of-command)
      (e2e-redisplay)
      (e2e-wait (format "diagnostics %S" e2e-mixed-original)
                (lambda () (equal (e2e-diag-set) e2e-mixed-original))
                (e2e-show-diags)))))

;; 7. Shutdown.
(defvar e2e-shutdown-proc nil)
(defvar e2e-shutdown-seconds nil)
(setq e2e-shutdown-outcome nil
      e2e-exit-sent nil
      e2e-exit-grace (let ((s (getenv "JAX_LSP_TEST_EXIT_GRACE")))
                       (if s (string-to-number s) 2)))
(e2e-save-events-log)
(setq e2e-shutdown-proc (jsonrpc--process e2e-server))
(let ((t0 (float-time)))
  (condition-case err
      (unwind-protect
          (eglot-shutdown e2e-server nil nil 'preserve-buffers)
        (setq e2e-shutdown-seconds (- (float-time) t0)))
    (error (e2e-say "     eglot-shutdown signalled: %s" (error-message-string err)))))
(e2e-say "     eglot-shutdown took %.2fs; `exit' sent: %s; server process: %s %s"
         e2e-shutdown-seconds (if e2e-exit-sent "yes" "no")
         (process-status e2e-shutdown-proc) (process-exit-status e2e-shutdown-proc))

(e2e-check "shutdown: the server answers `shutdown' (eglot sends \"params\": null) without an error"
  (pcase e2e-shutdown-outcome
    (`(:result ,_) t)
    (`(:error ,err) (e2e-fail "error reply: %s" (error-message-string err)))
    (_ (e2e-fail "no shutdown request was seen"))))

(e2e-check "shutdown: after `exit' the server process exits by itself with code 0"
  (let ((status (process-status e2e-shutdown-proc))
        (code (process-exit-status e2e-shutdown-proc)))
    (cond ((not e2e-exit-sent)
           (e2e-fail "eglot sent no `exit' (the shutdown request failed) and killed the server: %s %s"
                     status code))
          ((and (eq status 'exit) (= code 0)) t)
          ((and (eq status 'signal) (> e2e-exit-grace 0))
           (e2e-fail "still running %ss after `exit'; eglot killed it (signal %s)" e2e-exit-grace code))
          ((eq status 'signal)
           (e2e-fail "eglot killed it (signal %s) right after sending `exit', as eglot 1.9 does"
                     code))
          (t (e2e-fail "exited with %s %s" status code))))
  (when (and e2e-shutdown-seconds (> e2e-shutdown-seconds (+ 1.5 e2e-exit-grace)))
    (e2e-fail "eglot-shutdown took %.1fs" e2e-shutdown-seconds)))

;; The README's other way to start it: eglot-ensure on python-mode-hook.
(e2e-check "eglot-ensure on python-mode-hook starts jax-lsp for the next Python file"
  (add-hook 'python-mode-hook #'eglot-ensure)
  (let ((buf (e2e-open "coexist.py")))
    (with-current-buffer buf
      (let ((server (e2e-wait "eglot to manage coexist.py"
                              (lambda () (and eglot--managed-mode (eglot-current-server))))))
        (when (eq server e2e-server)
          (e2e-fail "the server that was shut down manages coexist.py"))
        ;; eglot-ensure connected after C-x C-f (in post-command-hook); flymake, started from
        ;; there, waits for the end of the next command.
        (e2e-end-of-command)
        (e2e-wait-diag "JP005" 5 "\"cpu\"")))))

(e2e-save-events-log)
(when e2e-own-workspace
  (delete-directory e2e-workspace t))
(e2e-say "%d passed, %d failed" e2e-passed e2e-failed)
;; A server still running (the eglot-ensure one) may ask for configuration
;; while Emacs exits; answering a closing process signals and exits 255.
;; The checks are done: nothing it sends now is read.
(dolist (proc (process-list))
  (set-process-filter proc #'ignore)
  (set-process-sentinel proc #'ignore))
(kill-emacs (if (zerop e2e-failed) 0 1))

;;; e2e.el ends here
