/* Normalized 64-bit significands f and binary exponents e with
 * f * 2^e = 10^k rounded to nearest, for k = -348, -340, ..., 340.
 * Generated with exact rational arithmetic (python3 fractions):
 *   for k in range(-348, 341, 8): f = round(10**k / 2**e), 2**63 <= f < 2**64
 * t/unit/num.c checks entries in the double range against strtod. */
static const uint64_t pow10_f[] = {
	0xfa8fd5a0081c0288ULL, /* 1e-348 */
	0xbaaee17fa23ebf76ULL, /* 1e-340 */
	0x8b16fb203055ac76ULL, /* 1e-332 */
	0xcf42894a5dce35eaULL, /* 1e-324 */
	0x9a6bb0aa55653b2dULL, /* 1e-316 */
	0xe61acf033d1a45dfULL, /* 1e-308 */
	0xab70fe17c79ac6caULL, /* 1e-300 */
	0xff77b1fcbebcdc4fULL, /* 1e-292 */
	0xbe5691ef416bd60cULL, /* 1e-284 */
	0x8dd01fad907ffc3cULL, /* 1e-276 */
	0xd3515c2831559a83ULL, /* 1e-268 */
	0x9d71ac8fada6c9b5ULL, /* 1e-260 */
	0xea9c227723ee8bcbULL, /* 1e-252 */
	0xaecc49914078536dULL, /* 1e-244 */
	0x823c12795db6ce57ULL, /* 1e-236 */
	0xc21094364dfb5637ULL, /* 1e-228 */
	0x9096ea6f3848984fULL, /* 1e-220 */
	0xd77485cb25823ac7ULL, /* 1e-212 */
	0xa086cfcd97bf97f4ULL, /* 1e-204 */
	0xef340a98172aace5ULL, /* 1e-196 */
	0xb23867fb2a35b28eULL, /* 1e-188 */
	0x84c8d4dfd2c63f3bULL, /* 1e-180 */
	0xc5dd44271ad3cdbaULL, /* 1e-172 */
	0x936b9fcebb25c996ULL, /* 1e-164 */
	0xdbac6c247d62a584ULL, /* 1e-156 */
	0xa3ab66580d5fdaf6ULL, /* 1e-148 */
	0xf3e2f893dec3f126ULL, /* 1e-140 */
	0xb5b5ada8aaff80b8ULL, /* 1e-132 */
	0x87625f056c7c4a8bULL, /* 1e-124 */
	0xc9bcff6034c13053ULL, /* 1e-116 */
	0x964e858c91ba2655ULL, /* 1e-108 */
	0xdff9772470297ebdULL, /* 1e-100 */
	0xa6dfbd9fb8e5b88fULL, /* 1e-92 */
	0xf8a95fcf88747d94ULL, /* 1e-84 */
	0xb94470938fa89bcfULL, /* 1e-76 */
	0x8a08f0f8bf0f156bULL, /* 1e-68 */
	0xcdb02555653131b6ULL, /* 1e-60 */
	0x993fe2c6d07b7facULL, /* 1e-52 */
	0xe45c10c42a2b3b06ULL, /* 1e-44 */
	0xaa242499697392d3ULL, /* 1e-36 */
	0xfd87b5f28300ca0eULL, /* 1e-28 */
	0xbce5086492111aebULL, /* 1e-20 */
	0x8cbccc096f5088ccULL, /* 1e-12 */
	0xd1b71758e219652cULL, /* 1e-4 */
	0x9c40000000000000ULL, /* 1e4 */
	0xe8d4a51000000000ULL, /* 1e12 */
	0xad78ebc5ac620000ULL, /* 1e20 */
	0x813f3978f8940984ULL, /* 1e28 */
	0xc097ce7bc90715b3ULL, /* 1e36 */
	0x8f7e32ce7bea5c70ULL, /* 1e44 */
	0xd5d238a4abe98068ULL, /* 1e52 */
	0x9f4f2726179a2245ULL, /* 1e60 */
	0xed63a231d4c4fb27ULL, /* 1e68 */
	0xb0de65388cc8ada8ULL, /* 1e76 */
	0x83c7088e1aab65dbULL, /* 1e84 */
	0xc45d1df942711d9aULL, /* 1e92 */
	0x924d692ca61be758ULL, /* 1e100 */
	0xda01ee641a708deaULL, /* 1e108 */
	0xa26da3999aef774aULL, /* 1e116 */
	0xf209787bb47d6b85ULL, /* 1e124 */
	0xb454e4a179dd1877ULL, /* 1e132 */
	0x865b86925b9bc5c2ULL, /* 1e140 */
	0xc83553c5c8965d3dULL, /* 1e148 */
	0x952ab45cfa97a0b3ULL, /* 1e156 */
	0xde469fbd99a05fe3ULL, /* 1e164 */
	0xa59bc234db398c25ULL, /* 1e172 */
	0xf6c69a72a3989f5cULL, /* 1e180 */
	0xb7dcbf5354e9beceULL, /* 1e188 */
	0x88fcf317f22241e2ULL, /* 1e196 */
	0xcc20ce9bd35c78a5ULL, /* 1e204 */
	0x98165af37b2153dfULL, /* 1e212 */
	0xe2a0b5dc971f303aULL, /* 1e220 */
	0xa8d9d1535ce3b396ULL, /* 1e228 */
	0xfb9b7cd9a4a7443cULL, /* 1e236 */
	0xbb764c4ca7a44410ULL, /* 1e244 */
	0x8bab8eefb6409c1aULL, /* 1e252 */
	0xd01fef10a657842cULL, /* 1e260 */
	0x9b10a4e5e9913129ULL, /* 1e268 */
	0xe7109bfba19c0c9dULL, /* 1e276 */
	0xac2820d9623bf429ULL, /* 1e284 */
	0x80444b5e7aa7cf85ULL, /* 1e292 */
	0xbf21e44003acdd2dULL, /* 1e300 */
	0x8e679c2f5e44ff8fULL, /* 1e308 */
	0xd433179d9c8cb841ULL, /* 1e316 */
	0x9e19db92b4e31ba9ULL, /* 1e324 */
	0xeb96bf6ebadf77d9ULL, /* 1e332 */
	0xaf87023b9bf0ee6bULL, /* 1e340 */
};
static const int16_t pow10_e[] = {
	-1220, -1193, -1166, -1140, -1113, -1087, -1060, -1034, -1007, -980, -954, -927, -901, -874, -847, -821, -794, -768, -741, -715, -688, -661, -635, -608, -582, -555, -529, -502, -475, -449, -422, -396, -369, -343, -316, -289, -263, -236, -210, -183, -157, -130, -103, -77, -50, -24, 3, 30, 56, 83, 109, 136, 162, 189, 216, 242, 269, 295, 322, 348, 375, 402, 428, 455, 481, 508, 534, 561, 588, 614, 641, 667, 694, 720, 747, 774, 800, 827, 853, 880, 907, 933, 960, 986, 1013, 1039, 1066
};
