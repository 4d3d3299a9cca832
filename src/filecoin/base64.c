/* Standard base64, RFC 4648 section 4 (Go's encoding/json writes []byte so). */
#include "czk/filecoin.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t czk_fc_base64_encode(char *out, const uint8_t *in, size_t n)
{
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = alphabet[(v >> 6) & 63];
        out[o++] = alphabet[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = '=';
        out[o++] = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = alphabet[(v >> 6) & 63];
        out[o++] = '=';
    }
    return o;
}

static int sextet(unsigned char ch)
{
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
}

czk_status czk_fc_base64_decode(uint8_t *out, size_t *out_len, const char *in, size_t len)
{
    uint32_t acc = 0;
    size_t o = 0, q = 0, pad = 0, pos = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)in[i];
        if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
        if (ch == '=') {
            pad++;
            if (pad > 2 || q + pad > 4)
                return czk_error(CZK_ERR_FORMAT, "base64: misplaced '=' at offset %zu", i);
            pos++;
            continue;
        }
        int v = sextet(ch);
        if (v < 0) return czk_error(CZK_ERR_FORMAT, "base64: invalid character 0x%02x at offset %zu", ch, i);
        if (pad) return czk_error(CZK_ERR_FORMAT, "base64: data after padding at offset %zu", i);
        acc = acc << 6 | (uint32_t)v;
        pos++;
        if (++q == 4) {
            out[o++] = (uint8_t)(acc >> 16);
            out[o++] = (uint8_t)(acc >> 8);
            out[o++] = (uint8_t)acc;
            q = 0;
            acc = 0;
        }
    }
    if (pos % 4) return czk_error(CZK_ERR_FORMAT, "base64: length %zu is not a multiple of 4", pos);
    if (pad) {
        if (q + pad != 4 || q < 2) return czk_error(CZK_ERR_FORMAT, "base64: bad padding");
        if (q == 2) {
            if (acc & 0xf) return czk_error(CZK_ERR_FORMAT, "base64: non-zero padding bits");
            out[o++] = (uint8_t)(acc >> 4);
        } else {
            if (acc & 0x3) return czk_error(CZK_ERR_FORMAT, "base64: non-zero padding bits");
            out[o++] = (uint8_t)(acc >> 10);
            out[o++] = (uint8_t)(acc >> 2);
        }
    }
    *out_len = o;
    return CZK_OK;
}
