#!/bin/sh
# The image's HEALTHCHECK: GET /healthz where serve (the container's process 1) listens — its --listen
# option when it was given one, else VISION_TASKS_LISTEN (the image sets it); an address on every
# interface (0.0.0.0, [::]) is asked on loopback.
listen=$(tr '\0' '\n' < /proc/1/cmdline | sed -n -e 's/^--listen=//p' -e '/^--listen$/{n;p;}' | tail -n 1)
listen=${listen:-$VISION_TASKS_LISTEN}
port=${listen##*:}
host=${listen%:*}
case "$host" in
  0.0.0.0 | "") host=127.0.0.1 ;;
  "[::]") host="[::1]" ;;
esac
exec curl -fsS -o /dev/null --max-time 4 "http://$host:$port/healthz"
