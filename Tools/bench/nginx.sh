#!/usr/bin/env bash
# nginx as a benchmark's peer, sourced by the scripts that compare with it (compare-stub-server.sh,
# four-clients.sh): installed with apt-get when missing, run in the foreground from a config of its own under a
# work directory, on loopback, with keep-alive connections kept for as long as a benchmark runs.
#
#   source "$here/nginx.sh"
#   start_nginx "$work" "$port" 2            # serves "$work/www" at http://127.0.0.1:$port/ with 2 workers
#   …                                        # nginx_pid is its master's process id
#   stop_nginx                               # in the script's EXIT trap
#
# Files under "$work/www" must be readable by everyone: when the script runs as root, the workers do not.

nginx_pid=""

# start_nginx WORK PORT WORKERS: starts nginx serving WORK/www on 127.0.0.1:PORT and waits until it answers.
start_nginx() {
    local work=$1 port=$2 workers=$3
    command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] \
        || bash "$(dirname "${BASH_SOURCE[0]}")/../dev/install-system-packages.sh" nginx >&2
    local binary
    binary="$(command -v nginx || echo /usr/sbin/nginx)"
    mkdir -p "$work/nginx/logs" "$work/nginx/tmp"
    cat >"$work/nginx/nginx.conf" <<NGINX
worker_processes $workers;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    default_type application/json;
    client_body_temp_path $work/nginx/tmp;
    proxy_temp_path $work/nginx/tmp;
    fastcgi_temp_path $work/nginx/tmp;
    uwsgi_temp_path $work/nginx/tmp;
    scgi_temp_path $work/nginx/tmp;
    keepalive_requests 10000000;
    keepalive_timeout 65;
    server {
        listen 127.0.0.1:$port;
        root $work/www;
    }
}
NGINX
    "$binary" -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' 2>"$work/nginx/stderr" &
    nginx_pid=$!
    local _
    for _ in $(seq 1 50); do
        curl -s -o /dev/null "http://127.0.0.1:$port/" && return 0
        sleep 0.1
    done
    echo "nginx did not start on 127.0.0.1:$port" >&2
    cat "$work/nginx/stderr" >&2
    return 1
}

# stop_nginx: asks nginx to finish, then kills it if it has not within five seconds.
stop_nginx() {
    [[ -n "$nginx_pid" ]] && kill -0 "$nginx_pid" 2>/dev/null || return 0
    kill -QUIT "$nginx_pid" 2>/dev/null || true
    local _
    for _ in $(seq 1 50); do kill -0 "$nginx_pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -KILL "$nginx_pid" 2>/dev/null || true
}
