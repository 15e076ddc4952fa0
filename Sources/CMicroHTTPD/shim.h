// Typed wrappers around libmicrohttpd's variadic start function, so Swift never makes a variadic call.
#ifndef TAPEDECK_CMICROHTTPD_SHIM_H
#define TAPEDECK_CMICROHTTPD_SHIM_H

#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <microhttpd.h>

/// Starts a daemon whose options are all given as an `MHD_OPTION_END`-terminated array.
static inline struct MHD_Daemon *tdk_mhd_start(unsigned int flags, uint16_t port,
                                               MHD_AccessHandlerCallback handler, void *handler_context,
                                               struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

static inline struct MHD_OptionItem tdk_mhd_option_int(enum MHD_OPTION option, intptr_t value) {
    struct MHD_OptionItem item = { option, value, NULL };
    return item;
}

static inline struct MHD_OptionItem tdk_mhd_option_pointer(enum MHD_OPTION option, void *pointer) {
    struct MHD_OptionItem item = { option, 0, pointer };
    return item;
}

static inline struct MHD_OptionItem tdk_mhd_option_notify_completed(MHD_RequestCompletedCallback callback,
                                                                    void *context) {
    struct MHD_OptionItem item = { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)callback, context };
    return item;
}

typedef void *(*tdk_mhd_uri_log_callback)(void *context, const char *uri, struct MHD_Connection *connection);

static inline struct MHD_OptionItem tdk_mhd_option_uri_log(tdk_mhd_uri_log_callback callback, void *context) {
    struct MHD_OptionItem item = { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)callback, context };
    return item;
}

static inline struct MHD_OptionItem tdk_mhd_option_end(void) {
    struct MHD_OptionItem item = { MHD_OPTION_END, 0, NULL };
    return item;
}

/// `accept4` with `SOCK_CLOEXEC` (a GNU extension Swift's Glibc module does not expose), so an accepted socket
/// never leaks into a child process.
static inline int tdk_accept_cloexec(int socket, struct sockaddr *address, socklen_t *length) {
    extern int accept4(int, struct sockaddr *, socklen_t *, int);
    return accept4(socket, address, length, SOCK_CLOEXEC);
}

/// The socket of a connection, or -1 (`MHD_get_connection_info` is variadic).
static inline int tdk_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The peer's address of a connection, or NULL.
static inline const struct sockaddr *tdk_mhd_connection_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// Hands an upgraded socket back to libmicrohttpd to close (`MHD_upgrade_action` is variadic).
static inline enum MHD_Result tdk_mhd_upgrade_close(struct MHD_UpgradeResponseHandle *handle) {
    return MHD_upgrade_action(handle, MHD_UPGRADE_ACTION_CLOSE);
}

static inline ssize_t tdk_mhd_reader_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t tdk_mhd_reader_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }
static inline uint64_t tdk_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

#endif
