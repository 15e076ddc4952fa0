#!/usr/bin/env bash
# nginx as a benchmark's peer, sourced by the scripts that compare with it (compare-stub-server.sh,
# four-clients.sh): installed with apt-get when missing, run in the foreground from a config of its own under a
# work directory, on loopback, with keep-alive connections kept for as long as a benchmark runs.
#
#   source "$here/nginx.sh"
#   start_nginx "$work" 2                    # serves "$work/www" at http://127.0.0.1:$nginx_port/ with 2 workers
#   …                                        # nginx_pid is its master's process id
#   stop_nginx                               # in the script's EXIT trap
#
# Files under "$work/www" must be readable by everyone: when the script runs as root, the workers do not.

nginx_pid=""
nginx_port=""

# nginx_binary: the path of nginx, installed first when missing.
nginx_binary() {
    command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] \
        || bash "$(dirname "${BASH_SOURCE[0]}")/../dev/install-system-packages.sh" nginx >&2
    command -v nginx || echo /usr/sbin/nginx
}

# start_nginx WORK WORKERS: starts nginx serving WORK/www on a free loopback port, which it sets in nginx_port, and
# waits until it answers.
start_nginx() {
    local work=$1 workers=$2 binary
    binary="$(nginx_binary)"
    nginx_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
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
        listen 127.0.0.1:$nginx_port;
        root $work/www;
    }
}
NGINX
    "$binary" -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' 2>"$work/nginx/stderr" &
    nginx_pid=$!
    local _
    for _ in $(seq 1 50); do
        curl -s -o /dev/null "http://127.0.0.1:$nginx_port/" && return 0
        sleep 0.1
    done
    echo "nginx did not start on 127.0.0.1:$nginx_port" >&2
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
