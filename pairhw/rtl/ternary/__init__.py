"""Units for F_3^m in the two-bit trit encoding (word = L | H << m): the adder that also subtracts
and negates (``adder``), cubing and cube-root networks with k-fold powers (``powers``), the
combinational schoolbook multiplier (``schoolbook``), Beuchat et al.'s pipelined Karatsuba
multiplier (``karatsuba``), the digit-serial multiplier (``digit_serial``), the trit networks they
are built from (``nets``) and the catalogue that makes a multiplier by name (``catalogue``)."""
