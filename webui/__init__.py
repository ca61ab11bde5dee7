"""webui: the web companion — the game runtime with its crash-safe journal (``webui.runtime``), the
Flask app (``webui.app.create_app``) with the JSON API, Server-Sent Events and the page, and the
``table-companion serve`` command (``webui.cli``). Flask is imported only by the app modules."""
