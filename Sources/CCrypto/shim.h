// OpenSSL's libcrypto (Debian: libssl-dev): its EVP digests, for SHA-256.
#include <openssl/evp.h>
