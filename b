(;GM[1]FF[4]CA[UTF-8]AP[ikeda]SZ[5]KM[6.5]RU[area3]DT[2026-11-22]PB[ikeda]PW[ikeda]
)
