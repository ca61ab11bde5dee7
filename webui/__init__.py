"""webui: the web companion's Flask shell — the app factory (``webui.app.create_app``, the runtime
injected), the JSON API, Server-Sent Events, pairing, the camera picture and the page shell
(``static/``) that loads the game's browser module (docs/page-shell.md). It shows whatever game the
runtime (:mod:`session.runtime`) plays; ``table-companion serve`` is in the app layer
(:mod:`companion.serve`). Flask is imported only by the app modules."""
