/* A perft command for HaChu, appended to Debian's hachu.c (hachu 0.21-29-gdf26f4a-3) by
 * scripts/hachu-perft.sh; koma's own code plays no part in it. It counts HaChu's own root
 * move list (ListMoves: the list HaChu checks a user's move against), with two additions
 * that turn HaChu's list into every legal choice, each once:
 * - the hash table is cleared before each list: HaChu's hash keys start from a constant at
 *   setboard, so another position's hash move would be listed;
 * - a move HaChu lists twice (its Lion generates a step both as a step and as a Lion move)
 *   is counted once;
 * - a deferral HaChu does not generate but accepts (ParseMove's "non-sensical deferral":
 *   declining a promotion where the promoted piece only gains moves) is counted too;
 * - moves that repeat an earlier position are listed (HaChu leaves them out of its list in
 *   Wa and Sho, where it forbids repetition): perft counts moves, not game histories;
 * - a position where the side to move has no King and no Crown Prince left is over
 *   (capture-the-king: the capture is counted, nothing below it); in Wa, no Crane King.
 * HaChu plays capture-the-king: moves that leave the mover's King capturable are in its
 * list, as under koma's `royal-capture=allowed`. */
static int
PerftDestination (MOVE m)
{
  int f = m >> SQLEN & SQUARE, t = m & SQUARE;
  return t >= SPECIAL ? f + toList[t - SPECIAL] : t;
}

static long long
Perft (int depth)
{
  MOVE list[2000];
  int n = 0, i, j, c50 = cnt50;
  long long total = 0;
  /* The piece after the King in HaChu's list is its Crown Prince in Chu, Dai and Sho; Wa has none
   * (the Treacherous Fox follows the Crane King there): its game ends with the King. */
  if(p[royal[stm]].pos == ABSENT && (currentVariant == V_WA || p[royal[stm] + 2].pos == ABSENT)) return 0;
#ifdef HASH
  memset(hashTable, 0, (hashMask + 1) * sizeof(HashBucket)); /* no stale hash move */
#endif
  perftRoot = 1;
  cnt50 = 0; /* no repetition check: a move is counted whether or not it repeats a position */
  ListMoves();
  perftRoot = 0;
  cnt50 = c50;
  for(i = listStart; i < listEnd; i++) {
    if(moveStack[i] == INVALID) continue;
    for(j = 0; j < n && (list[j] & (DEFER | PROMOTE | DEFER - 1)) != (moveStack[i] & (DEFER | PROMOTE | DEFER - 1)); j++) {}
    if(j == n) list[n++] = moveStack[i];
  }
  for(i = 0, j = n; i < j; i++) {
    MOVE key = list[i] & (DEFER - 1);
    int k, f = key >> SQLEN & SQUARE, t = PerftDestination(key), found = 0;
    if(!(list[i] & PROMOTE)) continue;
    for(k = 0; k < j; k++) if(!(list[k] & PROMOTE) && (list[k] & (DEFER - 1)) == key) found = 1;
    if(!found && !(p[board[f]].promoFlag & promoBoard[t] & (CANT_DEFER | LAST_RANK))) list[n++] = key;
  }
  if(depth <= 1) return n;
  for(i = 0; i < n; i++) {
    UndoInfo mine;
    int s0 = sup0, s1 = sup1, s2 = sup2, side = stm;
    stm = MakeMove2(stm, list[i]);
    mine = undoInfo;
    total += Perft(depth - 1);
    undoInfo = mine;
    UnMake2(list[i]);
    sup0 = s0, sup1 = s1, sup2 = s2;
    stm = side; xstm = stm ^ WHITE;
  }
  return total;
}
