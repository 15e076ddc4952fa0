// Typed wrappers around libcurl's variadic and macro-only API, so Swift never makes a variadic call.
#ifndef TAPEDECK_CCURL_SHIM_H
#define TAPEDECK_CCURL_SHIM_H

#include <curl/curl.h>

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
