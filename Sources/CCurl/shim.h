// Typed wrappers around libcurl's variadic and macro-only API, so Swift never makes a variadic call.
#ifndef TAPEDECK_CCURL_SHIM_H
#define TAPEDECK_CCURL_SHIM_H

#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// MARK: - curl_easy_setopt, one wrapper per argument type

static inline CURLcode tdk_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode tdk_easy_setopt_off(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode tdk_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode tdk_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode tdk_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode tdk_easy_setopt_blob(CURL *easy, CURLoption option, struct curl_blob *value) {
    return curl_easy_setopt(easy, option, value);
}

// MARK: - callbacks (function pointers are passed to the variadic setopt here, typed)

typedef size_t (*tdk_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
typedef int (*tdk_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                     curl_off_t ultotal, curl_off_t ulnow);
typedef int (*tdk_seek_callback)(void *userdata, curl_off_t offset, int origin);

static inline CURLcode tdk_easy_set_write_callback(CURL *easy, tdk_data_callback callback, void *userdata) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(easy, CURLOPT_WRITEDATA, userdata);
}

static inline CURLcode tdk_easy_set_read_callback(CURL *easy, tdk_data_callback callback, void *userdata) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_READFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(easy, CURLOPT_READDATA, userdata);
}

static inline CURLcode tdk_easy_set_header_callback(CURL *easy, tdk_data_callback callback, void *userdata) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(easy, CURLOPT_HEADERDATA, userdata);
}

static inline CURLcode tdk_easy_set_xferinfo_callback(CURL *easy, tdk_xferinfo_callback callback, void *userdata) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, callback);
    if (code != CURLE_OK) return code;
    code = curl_easy_setopt(easy, CURLOPT_XFERINFODATA, userdata);
    return code != CURLE_OK ? code : curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
}

static inline CURLcode tdk_easy_set_seek_callback(CURL *easy, tdk_seek_callback callback, void *userdata) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_SEEKFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(easy, CURLOPT_SEEKDATA, userdata);
}

// MARK: - TLS trust evaluation (OpenSSL, which libcurl uses on this platform)

typedef CURLcode (*tdk_ssl_ctx_callback)(CURL *easy, void *ssl_ctx, void *userdata);
typedef int (*tdk_cert_verify_callback)(X509_STORE_CTX *store_ctx, void *userdata);

/// Has libcurl call `callback` with each new connection's `SSL_CTX`, before the handshake.
static inline CURLcode tdk_easy_set_ssl_ctx_callback(CURL *easy, tdk_ssl_ctx_callback callback, void *userdata) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_SSL_CTX_FUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(easy, CURLOPT_SSL_CTX_DATA, userdata);
}

/// Replaces OpenSSL's chain verification on `ssl_ctx` with `callback`, and refuses renegotiation, so the callback
/// runs only during the connection's first handshake.
static inline void tdk_ssl_ctx_set_verifier(void *ssl_ctx, tdk_cert_verify_callback callback, void *userdata) {
    SSL_CTX_set_options((SSL_CTX *)ssl_ctx, SSL_OP_NO_RENEGOTIATION);
    SSL_CTX_set_cert_verify_callback((SSL_CTX *)ssl_ctx, callback, userdata);
}

static inline int tdk_x509_stack_count(STACK_OF(X509) *stack) { return stack ? sk_X509_num(stack) : 0; }
static inline X509 *tdk_x509_stack_at(STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }

/// DER of `certificate` into `out` (pass NULL to learn the length).
static inline int tdk_x509_der(X509 *certificate, unsigned char *out) {
    unsigned char *cursor = out;
    return i2d_X509(certificate, out ? &cursor : NULL);
}

/// DER `SubjectPublicKeyInfo` of `certificate` into `out` (pass NULL to learn the length).
static inline int tdk_x509_spki(X509 *certificate, unsigned char *out) {
    unsigned char *cursor = out;
    return i2d_X509_PUBKEY(X509_get_X509_PUBKEY(certificate), out ? &cursor : NULL);
}

static inline X509 *tdk_x509_from_der(const unsigned char *der, long length) {
    const unsigned char *cursor = der;
    return d2i_X509(NULL, &cursor, length);
}

/// 1 when `certificate` names `host`: IP literals against IP SANs, names against DNS SANs (or the common name when
/// there is no DNS SAN), as libcurl checks them.
static inline int tdk_x509_names_host(X509 *certificate, const char *host) {
    int ip = X509_check_ip_asc(certificate, host, 0);
    if (ip != -2) return ip == 1;
    return X509_check_host(certificate, host, 0, 0, NULL) == 1;
}

/// Verifies `leaf` (with `untrusted` intermediates) against `anchors` alone, any of which may end the chain
/// (partial chains allowed, as a pinned leaf or intermediate must be). On success returns the built chain's
/// verifying context, which the caller frees with `tdk_free_anchored_verification`; NULL on failure.
static inline X509_STORE_CTX *tdk_verify_with_anchors(X509 *leaf, STACK_OF(X509) *untrusted, X509 **anchors, int count) {
    X509_STORE *store = X509_STORE_new();
    if (!store) return NULL;
    for (int i = 0; i < count; i++) X509_STORE_add_cert(store, anchors[i]);
    X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN);
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    if (!context || X509_STORE_CTX_init(context, store, leaf, untrusted) != 1) {
        X509_STORE_CTX_free(context);
        X509_STORE_free(store);
        return NULL;
    }
    X509_STORE_CTX_set_default(context, "ssl_server");
    if (X509_verify_cert(context) != 1) {
        X509_STORE_CTX_free(context);
        X509_STORE_free(store);
        return NULL;
    }
    return context;
}

static inline void tdk_free_anchored_verification(X509_STORE_CTX *context) {
    X509_STORE *store = X509_STORE_CTX_get0_store(context);
    X509_STORE_CTX_free(context);
    X509_STORE_free(store);
}

static inline int tdk_verify_ok(void) { return X509_V_OK; }
static inline int tdk_verify_rejected(void) { return X509_V_ERR_APPLICATION_VERIFICATION; }

/// SHA-256 of `length` bytes at `data` into the 32 bytes at `out`.
static inline int tdk_sha256(const void *data, size_t length, unsigned char *out) {
    unsigned int written = 0;
    return EVP_Digest(data, length, out, &written, EVP_sha256(), NULL);
}

// MARK: - curl_easy_getinfo

static inline CURLcode tdk_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode tdk_easy_getinfo_off(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode tdk_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value) {
    char *result = NULL;
    CURLcode code = curl_easy_getinfo(easy, info, &result);
    *value = result;
    return code;
}

static inline CURLcode tdk_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value) {
    return curl_easy_getinfo(easy, info, value);
}

/// The socket of a CONNECT_ONLY transfer (`CURLINFO_ACTIVESOCKET`), to wait on with poll(2).
static inline CURLcode tdk_easy_getinfo_socket(CURL *easy, curl_socket_t *value) {
    return curl_easy_getinfo(easy, CURLINFO_ACTIVESOCKET, value);
}

static inline CURLcode tdk_easy_getinfo_certinfo(CURL *easy, struct curl_certinfo **value) {
    return curl_easy_getinfo(easy, CURLINFO_CERTINFO, value);
}

// MARK: - curl_multi_setopt

static inline CURLMcode tdk_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

// MARK: - macros Swift does not import

static inline size_t tdk_readfunc_pause(void) { return CURL_READFUNC_PAUSE; }
static inline size_t tdk_readfunc_abort(void) { return CURL_READFUNC_ABORT; }
static inline size_t tdk_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
static inline int tdk_seekfunc_ok(void) { return CURL_SEEKFUNC_OK; }
static inline int tdk_seekfunc_fail(void) { return CURL_SEEKFUNC_FAIL; }
static inline int tdk_seekfunc_cantseek(void) { return CURL_SEEKFUNC_CANTSEEK; }
static inline int tdk_pause_continue(void) { return CURLPAUSE_CONT; }
static inline long tdk_global_default(void) { return CURL_GLOBAL_DEFAULT; }
static inline curl_version_info_data *tdk_version_info(void) { return curl_version_info(CURLVERSION_NOW); }

#endif
